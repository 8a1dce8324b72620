/**
 * The sign-in and consent forms' fields. The gateway's body limit
 * (gateway/http/body-limit.ts) has already refused a body that is not
 * `application/x-www-form-urlencoded` (415) or too large (413); what is left
 * is text that must be UTF-8.
 */
export type FormResult = { ok: true; params: URLSearchParams } | { ok: false; status: 400; description: string }

export async function readForm(request: Request): Promise<FormResult> {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(await request.arrayBuffer())
    return { ok: true, params: new URLSearchParams(text) }
  } catch {
    return { ok: false, status: 400, description: 'The request body is not valid UTF-8.' }
  }
}
