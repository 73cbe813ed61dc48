/**
 * A click handler that does `act`, then moves focus to the message box of the panel the pressed control is in. A
 * control that disappears once pressed (a starter, Stop, Retry, Dismiss) would otherwise drop keyboard focus to the
 * page's `<body>`, out of the widget, where Escape no longer reaches the panel.
 */
export function thenFocusComposer(act: () => unknown): (event: Event) => void {
  return (event) => {
    const panel = (event.currentTarget as Element).closest('.panel');
    void act();
    panel?.querySelector('textarea')?.focus();
  };
}
