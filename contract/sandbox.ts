/**
 * The sandbox credentials, public by design: published in docs/api.md, the
 * docs and the OpenAPI document so integrators can try the API at once.
 * They grant read scopes only (the key has role `sandbox.read` → api.read;
 * the client may ask for api.read and the content.*.read scopes). The gateway
 * knows them from here (gateway/auth/sandbox.ts), with no keys or clients file:
 * they are part of the product, not runtime data.
 */
export const SANDBOX_KEY = 'tw_sandbox_SOUaKtS0G7uqRbQBjjUJpOd0wJfbIr243W5b'

export const SANDBOX_CLIENT = {
  id: 'sandbox',
  secret: 'tw_cs_U5qDOncHQSBnRbw78rsu6pQlmXXQUFgjOMdXT2gA',
  scopes: [
    'api.read',
    'content.blog.read',
    'content.case-studies.read',
    'content.webinars.read',
    'content.events.read',
  ],
} as const
