/** Parse RateLimit / RateLimit-Policy fields, `"name";k=v;…, …`, into { name: { k: v } }. */
export function rateLimitFields(header: string | null): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {}
  for (const member of (header ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean)) {
    const [name = '', ...params] = member.split(';')
    out[JSON.parse(name) as string] = Object.fromEntries(
      params.map((p) => p.split('=')).map(([k, v]) => [k!, Number(v)]),
    )
  }
  return out
}
