/**
 * A formatter of message times in the visitor's locale and time zone: the time alone for today's messages, the
 * date and time for older ones. The `Intl` formatters are built once per widget, not once per message.
 */
export function createTimeFormat(locale: string, now: () => number = Date.now): (time: number) => string {
  const today = new Intl.DateTimeFormat(locale, { timeStyle: 'short' });
  const older = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (time) => (new Date(time).toDateString() === new Date(now()).toDateString() ? today : older).format(time);
}
