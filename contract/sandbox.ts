/**
 * The sandbox credentials, public by design: published in the README, the
 * docs and the OpenAPI document so integrators can try the API at once.
 * They grant read scopes only (the key has role `sandbox.read` → api.read;
 * the client may ask for api.read and the content.*.read scopes). Their
 * hashes are in keys.json and issuer/clients.json; tests check they agree.
 */
export const SANDBOX_KEY = 'tw_sandbox_SOUaKtS0G7uqRbQBjjUJpOd0wJfbIr243W5b'

export const SANDBOX_CLIENT = { id: 'sandbox', secret: 'tw_cs_U5qDOncHQSBnRbw78rsu6pQlmXXQUFgjOMdXT2gA' } as const
