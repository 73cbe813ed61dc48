import { attribute, type FieldErrors } from './http';

const present = (value: unknown) =>
  value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');

/** A tiny subset of Laravel's validator, with its message wording (cody-api.md §3). */
export function createValidator(body: Record<string, unknown>) {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  return {
    errors,
    /** required|string|max:n — returns the trimmed value when valid. */
    string(field: string, max: number): string | undefined {
      const value = body[field];
      const name = attribute(field);
      if (!present(value)) return void add(field, `The ${name} field is required.`);
      if (typeof value !== 'string') return void add(field, `The ${name} field must be a string.`);
      // Laravel counts characters (mb_strlen), not UTF-16 units: an emoji is one.
      if (Array.from(value.trim()).length > max)
        return void add(field, `The ${name} field must not be greater than ${max} characters.`);
      return value.trim();
    },
    /** required|exists — `exists` decides. */
    exists(field: string, exists: (id: string) => boolean): string | undefined {
      const value = body[field];
      if (!present(value)) return void add(field, `The ${attribute(field)} field is required.`);
      if (typeof value !== 'string' || !exists(value))
        return void add(field, `The selected ${attribute(field)} is invalid.`);
      return value;
    },
    /** nullable|array|max:n, each element exists. */
    idArray(field: string, max: number, exists: (id: string) => boolean): string[] {
      const value = body[field];
      if (value === undefined || value === null) return [];
      if (!Array.isArray(value)) return (void add(field, `The ${attribute(field)} field must be an array.`), []);
      if (value.length > max) add(field, `The ${attribute(field)} field must not have more than ${max} items.`);
      value.forEach((id, i) => {
        if (typeof id !== 'string' || !exists(id)) add(`${field}.${i}`, `The selected ${field}.${i} is invalid.`);
      });
      return value.filter((id): id is string => typeof id === 'string');
    },
    /** Laravel's `boolean` rule: true/false, 1/0, "1"/"0", "true"/"false". */
    boolean(field: string, fallback: boolean): boolean {
      const value = body[field];
      if (value === undefined || value === null) return fallback;
      if ([true, 1, '1', 'true'].includes(value as never)) return true;
      if ([false, 0, '0', 'false'].includes(value as never)) return false;
      add(field, `The ${attribute(field)} field must be true or false.`);
      return fallback;
    },
    get ok() {
      return Object.keys(errors).length === 0;
    },
  };
}
