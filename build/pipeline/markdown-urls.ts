/**
 * URL attributes as rehype-sanitize with GitHub's defaultSchema leaves them:
 * a value with a protocol outside the schema's list (compared exactly, as
 * hast-util-sanitize does, so `JAVASCRIPT:` is refused too) is dropped;
 * relative URLs and fragments pass.
 */
import { defaultSchema } from 'rehype-sanitize'

const PROTOCOLS: Record<'href' | 'src', readonly string[]> = {
  href: defaultSchema.protocols!.href!,
  src: defaultSchema.protocols!.src!,
}

/** The value to keep for `attribute`, or undefined when the sanitiser would drop it. */
export function safeUrl(attribute: 'href' | 'src', url: string): string | undefined {
  const colon = url.indexOf(':')
  if (colon < 0) return url
  const before = (mark: string) => {
    const at = url.indexOf(mark)
    return at > -1 && colon > at
  }
  // A colon after `/`, `?` or `#` is not a protocol.
  if (before('/') || before('?') || before('#')) return url
  return PROTOCOLS[attribute].some((protocol) => colon === protocol.length && url.startsWith(protocol))
    ? url
    : undefined
}
