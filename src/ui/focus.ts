/**
 * Moves focus to the message box of the panel `from` is in. A control that disappears once pressed (a starter,
 * Stop, Retry, Dismiss) would otherwise drop keyboard focus to the page's `<body>`, out of the widget, where
 * Escape no longer reaches the panel.
 */
export function focusComposer(from: EventTarget | null): void {
  (from as Element | null)?.closest('.panel')?.querySelector<HTMLElement>('.composer__input')?.focus();
}
