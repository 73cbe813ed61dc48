/**
 * The service's validation, as far as the proxy repeats it: Laravel's rules and wording (cody-api.md §3), so a
 * refusal by the proxy reads exactly as one by the service.
 */
import { VALIDATION } from '../../protocol/contract.js';
import { noteRefusal } from './refusal.js';
import { json } from './respond.js';

/** Field errors, keyed by field, in the order the fields were checked. */
type FieldErrors = Record<string, string[]>;

/** Laravel's attribute name: `bot_id` reads `bot id`. */
const attribute = (field: string) => field.replace(/_/g, ' ');

/** A contract message with its placeholders filled in. */
function say(template: string, field: string, max?: number): string {
  return template.replace('{attribute}', attribute(field)).replace('{max}', String(max));
}

/** Laravel's `required`: not missing, null, blank text or an empty list (which a JSON `{}` is to PHP). */
function present(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  return typeof value !== 'object' || Object.keys(value).length > 0;
}

/** Laravel's `boolean` values; anything else fails the rule. */
const TRUE = new Set<unknown>([true, 1, '1', 'true']);
const FALSE = new Set<unknown>([false, 0, '0', 'false']);

/** Collects errors field by field; `failed()` is the 422 once every field is checked, or null. */
export function createValidator(body: Record<string, unknown>) {
  const errors: FieldErrors = {};
  // The first failure, for telemetry: which field, by which rule (an `invalid` conversation_id is a missing grant).
  let first: { field: string; rule: keyof typeof VALIDATION } | undefined;
  const add = (field: string, rule: keyof typeof VALIDATION, max?: number) => {
    first ??= { field, rule };
    (errors[field] ??= []).push(say(VALIDATION[rule], field, max));
  };
  /** `string|max:n` of a value given, `max` counted in code points (characters, as the service counts them). */
  const string = (field: string, value: unknown, max?: number): string | undefined => {
    if (typeof value !== 'string') return void add(field, 'string');
    if (max !== undefined && codePoints(value) > max) return void add(field, 'max', max);
    return value;
  };
  return {
    /** `required|string|max:n`. */
    text(field: string, max?: number): string | undefined {
      const value = body[field];
      return present(value) ? string(field, value, max) : void add(field, 'required');
    },
    /**
     * `required|exists`: `exists` decides, and answers the same for an id that does not exist and one that is not
     * the visitor's. SECURITY: no existence oracle.
     */
    async exists<T>(field: string, exists: (value: unknown) => Promise<T | null>): Promise<T | undefined> {
      const value = body[field];
      if (!present(value)) return void add(field, 'required');
      const found = await exists(value);
      if (found === null) return void add(field, 'invalid');
      return found;
    },
    /** `nullable|string|max:n`: absent, null or a string of at most `max` code points. */
    optionalText(field: string, max: number): string | undefined {
      const value = body[field];
      return value === undefined || value === null ? undefined : string(field, value, max);
    },
    /** `required|in:…`: one of `allowed`, else "The selected … is invalid." */
    oneOf<T extends string>(field: string, allowed: readonly T[]): T | undefined {
      const value = body[field];
      if (!present(value)) return void add(field, 'required');
      const found = allowed.find((one) => one === value);
      return found ?? void add(field, 'invalid');
    },
    /** `boolean`, with its default when the field is absent. */
    flag(field: string, fallback: boolean): boolean {
      const value = body[field];
      if (value === undefined || value === null) return fallback;
      if (TRUE.has(value) || FALSE.has(value)) return TRUE.has(value);
      add(field, 'boolean');
      return fallback;
    },
    failed: (): Response | null =>
      first ? noteRefusal(validationError(errors), { reason: 'validation', ...first }) : null,
  };
}

/** The service's 422: `message` is the first error, plus ` (and N more error[s])`; `errors` is keyed by field. */
function validationError(errors: FieldErrors): Response {
  const all = Object.values(errors).flat();
  const more = all.length - 1;
  const suffix = more > 0 ? ` (and ${more} more error${more === 1 ? '' : 's'})` : '';
  return json({ message: `${all[0]}${suffix}`, errors }, 422);
}

/** The length of `text` in Unicode code points, counted without building an array. */
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
