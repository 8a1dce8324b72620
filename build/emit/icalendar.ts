/**
 * iCalendar (RFC 5545) by hand: content lines with escaped text, folded at
 * 75 octets (never inside a UTF-8 sequence), CRLF line ends; local times in
 * an IANA zone with its VTIMEZONE (from timezones-ical-library, named after
 * the item's own zone), or UTC when the zone has no VTIMEZONE there.
 */
import { tzlib_get_ical_block, tzlib_get_timezones } from 'timezones-ical-library'

const CRLF = '\r\n'
const MAX_OCTETS = 75

/** TEXT values: backslash, semicolon, comma and newline escaped (RFC 5545 §3.3.11). */
export function escapeText(value: string): string {
  return value.replace(/\r\n?/g, '\n').replace(/[\\;,\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`))
}

/** A content line folded into lines of at most 75 octets, never inside a character; continuation lines start with a space. */
export function fold(line: string): string {
  if (Buffer.byteLength(line) <= MAX_OCTETS) return line
  let folded = ''
  let width = 0
  for (const character of line) {
    const size = Buffer.byteLength(character)
    if (width + size > MAX_OCTETS) {
      folded += `${CRLF} `
      width = 1
    }
    folded += character
    width += size
  }
  return folded
}

/** Content lines joined into an iCalendar object's text. */
export function serialize(lines: readonly string[]): string {
  return lines.map(fold).join(CRLF) + CRLF
}

/** `20270305T080000Z`: an instant in UTC. */
export function utcStamp(instant: string): string {
  return new Date(instant)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '')
}

let knownZones: Set<string> | undefined
const blocks = new Map<string, string[] | undefined>()

/** The VTIMEZONE lines of `zone` under its own name; undefined when the library has none for it. */
export function vtimezone(zone: string): string[] | undefined {
  if (blocks.has(zone)) return blocks.get(zone)
  knownZones ??= new Set(tzlib_get_timezones() as string[])
  // Asked only for zones it knows: for others the library prints to the console.
  const block = knownZones.has(zone) ? tzlib_get_ical_block(zone) : undefined
  // A linked zone (Europe/Amsterdam) comes with its target's rules (Europe/Brussels): same rules, under our name.
  const lines =
    Array.isArray(block) && block[0]
      ? block[0]
          .split(/\r?\n/)
          .filter(Boolean)
          .map((line) => (/^(TZID|X-LIC-LOCATION):/.test(line) ? `${line.split(':')[0]}:${zone}` : line))
      : undefined
  blocks.set(zone, lines)
  return lines
}

const localParts = new Map<string, Intl.DateTimeFormat>()

/** `20270305T090000`: the wall-clock time of an instant in `zone`. */
export function localStamp(instant: string, zone: string): string {
  let format = localParts.get(zone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    localParts.set(zone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]))
  return `${parts.year!.padStart(4, '0')}${parts.month}${parts.day}T${parts.hour}${parts.minute}${parts.second}`
}

/** DTSTART/DTEND: local time with TZID when the zone has a VTIMEZONE, else UTC. */
export function dateTimeLine(name: 'DTSTART' | 'DTEND', instant: string, zone: string | undefined): string {
  return zone && vtimezone(zone) ? `${name};TZID=${zone}:${localStamp(instant, zone)}` : `${name}:${utcStamp(instant)}`
}
