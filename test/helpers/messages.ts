/**
 * The service's and the proxy's messages as tests expect them, built from src/protocol/contract.ts, where the
 * TypeScript proxies take them from and the PHP proxy's generated copy comes from (the simulator speaks the same
 * words): a test never retypes a message, so rewording one in the contract rewords it in every test.
 */
import { LIMIT_MESSAGE, LIMIT_NOUNS, REFUSALS, VALIDATION } from '../../src/protocol/contract';

/** The service's validation message of `rule` for `field`, which reads as Laravel's attribute (`bot_id`: `bot id`). */
export function fieldMessage(rule: keyof typeof VALIDATION, field: string, max?: number): string {
  return VALIDATION[rule].replace('{attribute}', field.replace(/_/g, ' ')).replace('{max}', String(max));
}

/** The body of a refusal the proxy makes itself. */
export const refusalBody = (name: keyof typeof REFUSALS) => ({ message: REFUSALS[name].message });

/** The message of a limit's 429 on `action`, to wait `seconds`. */
export function limitMessage(action: keyof typeof LIMIT_NOUNS, seconds: number): string {
  return LIMIT_MESSAGE.replace('{noun}', LIMIT_NOUNS[action]).replace('{seconds}', String(seconds));
}
