/** The `iana-timezone` format of the frontmatter schemas. */
const zones = new Set(Intl.supportedValuesOf('timeZone'))

/** True for names Intl knows, including links like UTC that supportedValuesOf omits. */
export function isTimeZone(name: string): boolean {
  if (zones.has(name)) return true
  try {
    new Intl.DateTimeFormat('en', { timeZone: name })
    return name.includes('/') || name === 'UTC'
  } catch {
    return false
  }
}
