/**
 * The editor's widget for dates and date-times (contract/admin-fields.ts
 * `datetime-offset`): a date, a time and the time's UTC offset, each its own
 * input, written back as they read: `2026-03-14` with no time where the
 * schema allows a date alone (`time: optional`), else
 * `2027-03-04T09:00:00+01:00`. A value is shown as written, in its own
 * offset (not converted to the computer's time zone), and a part nobody
 * changed is written back as it was (seconds, `Z`), so opening an item and
 * saving it changes no date. A time given to a date takes the offset the
 * computer's time zone has on that day; any offset can be chosen instead.
 * A value the widget cannot read is shown as text to correct, never dropped.
 *
 * Plain browser ESM, copied into dist/admin/ as it is; Node runs its parsing in the tests.
 */

const VALUE = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:\d{2}))?$/

/** The UTC offsets in use somewhere (and every whole hour), for the offset's choice. */
const OFFSETS = [
  ...Array.from({ length: 27 }, (_, i) => i - 12).map(
    (h) => `${h < 0 ? '-' : '+'}${String(Math.abs(h)).padStart(2, '0')}:00`,
  ),
  ...[
    '-09:30',
    '-03:30',
    '+03:30',
    '+04:30',
    '+05:30',
    '+05:45',
    '+06:30',
    '+08:45',
    '+09:30',
    '+10:30',
    '+12:45',
    '+13:45',
  ],
].sort((a, b) => minutesOf(a) - minutesOf(b))

/** @param {string} offset `Z` or `±HH:MM` */
function minutesOf(offset) {
  if (offset === 'Z') return 0
  const sign = offset.startsWith('-') ? -1 : 1
  return sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)))
}

/**
 * @typedef {{ date: string, time: string, seconds: string, offset: string }} Parts
 * `seconds` is what the written value had after the minutes (`:00`, `:30.5`), kept while the time is not changed.
 */

/**
 * A value's parts; undefined for a value that is no date or date-time with offset.
 * @param {unknown} value
 * @returns {Parts | undefined}
 */
export function partsOf(value) {
  if (value === undefined || value === null || value === '') return { date: '', time: '', seconds: '', offset: '' }
  const match = typeof value === 'string' ? VALUE.exec(value) : null
  if (!match) return undefined
  return { date: match[1] ?? '', time: match[2] ?? '', seconds: match[3] ?? '', offset: match[4] ?? '' }
}

/**
 * The value of the parts: '' without a date, the date alone without a time.
 * @param {Parts} parts
 */
export function valueFromParts(parts) {
  if (!parts.date) return ''
  if (!parts.time) return parts.date
  return `${parts.date}T${parts.time}${parts.seconds || ':00'}${parts.offset || localOffset(parts.date, parts.time)}`
}

/** The offset of this computer's time zone at a wall-clock time, `+01:00`. */
export function localOffset(/** @type {string} */ date, /** @type {string} */ time) {
  const minutes = -new Date(`${date}T${time}:00`).getTimezoneOffset()
  if (Number.isNaN(minutes)) return '+00:00'
  const abs = Math.abs(minutes)
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

/** @param {any} CMS Decap's global, before `CMS.init` */
export function registerDateTimeOffsetWidget(CMS) {
  const h = window.h
  const Control = window.createClass({
    getInitialState() {
      return { parts: partsOf(this.props.value), raw: this.props.value }
    },
    componentDidUpdate(/** @type {any} */ previous) {
      // A value set from outside (a reload, "Copy from" another locale): show it.
      if (previous.value !== this.props.value && this.props.value !== this.emitted)
        this.setState({ parts: partsOf(this.props.value), raw: this.props.value })
    },
    change(/** @type {Partial<Parts>} */ next) {
      const parts = { ...this.state.parts, ...next }
      // A changed time has whole seconds; a time without a date or an offset gets the computer's offset on that day.
      if (next.time !== undefined) parts.seconds = ''
      if (!parts.time) parts.offset = ''
      else if (!parts.offset && parts.date) parts.offset = localOffset(parts.date, parts.time)
      this.setState({ parts })
      this.emitted = valueFromParts(parts)
      this.props.onChange(this.emitted)
    },
    isValid() {
      const { parts } = this.state
      if (parts?.time && !parts.date)
        return { error: { type: 'CUSTOM', message: `${this.props.field.get('label')}: a time needs a date` } }
      return true
    },
    render() {
      const { forID, field, classNameWrapper, setActiveStyle, setInactiveStyle } = this.props
      const { parts, raw } = this.state
      const label = field.get('label')
      const focus = { onFocus: setActiveStyle, onBlur: setInactiveStyle }
      const row = {
        className: classNameWrapper,
        style: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap' },
      }
      if (!parts)
        // Not a value this widget reads: the text as written, to correct (the field's pattern says what is wrong).
        return h(
          'div',
          row,
          h('input', {
            id: forID,
            type: 'text',
            value: raw ?? '',
            onChange: (/** @type {any} */ e) => {
              this.emitted = e.target.value
              this.setState({ raw: e.target.value, parts: partsOf(e.target.value) })
              this.props.onChange(e.target.value)
            },
            ...focus,
          }),
        )
      const optional = field.get('time') !== 'required'
      const offsets = parts.offset && !OFFSETS.includes(parts.offset) ? [parts.offset, ...OFFSETS] : OFFSETS
      return h('div', row, [
        h('input', {
          key: 'date',
          id: forID,
          type: 'date',
          value: parts.date,
          onChange: (/** @type {any} */ e) => this.change({ date: e.target.value }),
          ...focus,
        }),
        h('input', {
          key: 'time',
          type: 'time',
          value: parts.time,
          'aria-label': `${label}: time${optional ? ' (optional)' : ''}`,
          onChange: (/** @type {any} */ e) => this.change({ time: e.target.value }),
          ...focus,
        }),
        h(
          'select',
          {
            key: 'offset',
            value: parts.offset,
            disabled: !parts.time,
            'aria-label': `${label}: UTC offset`,
            onChange: (/** @type {any} */ e) => this.change({ offset: e.target.value }),
            ...focus,
          },
          [
            h('option', { key: '', value: '' }, parts.time ? 'offset' : '—'),
            ...offsets.map((o) => h('option', { key: o, value: o }, o === 'Z' ? 'UTC (Z)' : `UTC${o}`)),
          ],
        ),
        optional && parts.time
          ? h('button', { key: 'clear', type: 'button', onClick: () => this.change({ time: '' }) }, 'Date only')
          : null,
      ])
    },
  })
  const Preview = (/** @type {{ value?: string }} */ { value }) => h('span', null, value ?? '')
  CMS.registerWidget('datetime-offset', Control, Preview)
}
