/**
 * What the gateway checks of the settings beyond each one's own rule, and the
 * version it reports. The settings themselves are the one schema's
 * (contract/settings.ts), read by each entry point and handed to
 * createGateway (gateway.ts) as they are.
 */
import { SettingsError, type Settings } from '../contract/settings.ts'
import { isLoopbackHostname } from './mcp/origin-guard.ts'

/** Throws SettingsError for settings that are each valid but not together (every such pair at once). */
export function checkSettings(settings: Settings): void {
  const errors: SettingsError[] = []
  if (settings.MCP_AUTH === 'off' && !isLoopbackHostname(settings.HOST)) {
    errors.push(
      new SettingsError(
        'MCP_AUTH',
        `MCP_AUTH=off serves /mcp without credentials, so it only runs on a loopback address (127.0.0.1, ::1, localhost); HOST is "${settings.HOST}"`,
      ),
    )
  }
  // The address listened on is no name for clients (0.0.0.0, a LAN address): the OAuth metadata
  // would advertise it, and /mcp would refuse the name clients do use.
  if (!isLoopbackHostname(settings.HOST) && settings.PUBLIC_URL === undefined) {
    errors.push(
      new SettingsError(
        'PUBLIC_URL',
        `PUBLIC_URL must be set when HOST is not a loopback address (HOST is "${settings.HOST}"): it is the origin clients use, which the OAuth metadata names and /mcp checks requests against, e.g. PUBLIC_URL=http://192.168.1.20:8787`,
      ),
    )
  }
  const [first, ...others] = errors
  if (first) throw new SettingsError(first.setting, first.message, others)
}
