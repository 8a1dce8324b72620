/**
 * Read an `application/x-www-form-urlencoded` body (the sign-in and consent
 * forms) with a size limit, counting bytes as they arrive so an oversized or
 * lying Content-Length cannot make us buffer more than the limit.
 */
export const MAX_FORM_BYTES = 8 * 1024

export type FormResult =
  | { ok: true; params: URLSearchParams }
  | { ok: false; status: 400 | 413; description: string }

export async function readForm(request: Request, limit = MAX_FORM_BYTES): Promise<FormResult> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/x-www-form-urlencoded') {
    return { ok: false, status: 400, description: 'The request body must be application/x-www-form-urlencoded.' }
  }
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > limit) return { ok: false, status: 413, description: `The request body exceeds ${limit} bytes.` }
  const chunks: Uint8Array[] = []
  let size = 0
  if (request.body) {
    const reader = request.body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > limit) {
        await reader.cancel().catch(() => {})
        return { ok: false, status: 413, description: `The request body exceeds ${limit} bytes.` }
      }
      chunks.push(value)
    }
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks))
  } catch {
    return { ok: false, status: 400, description: 'The request body is not valid UTF-8.' }
  }
  return { ok: true, params: new URLSearchParams(text) }
}
