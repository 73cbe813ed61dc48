import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { PARTS } from '../styles/parts.js';

/** One entry of a menu: a button, or a link (`href`: mailto:, or a page opened in a new tab). */
export interface MenuItem {
  label: string;
  /** Run after the menu has closed and focus is back on its button. */
  onSelect: () => void;
  href?: string | undefined;
  disabled?: boolean;
}

/** Where focus goes as the menu opens: its first item or its last (Up arrow on the button). */
type Entry = 'first' | 'last' | null;

/**
 * Moves focus among the menu's `items` on Up and Down (which wrap), Home and End; returns whether the key was one.
 */
function moveFocus(event: KeyboardEvent, items: readonly HTMLElement[]): boolean {
  const at = items.indexOf(event.target as HTMLElement);
  const move: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 };
  const to = move[event.key];
  if (to === undefined) return false;
  event.preventDefault();
  items[(to + items.length) % items.length]?.focus();
  return true;
}

/**
 * One item of the menu, in one element for both kinds: a link carries `href` (and a new tab unless it is mailto:),
 * a button none.
 */
function MenuEntry({ item, onSelect }: { item: MenuItem; onSelect: (item: MenuItem) => void }) {
  const Item = item.href ? 'a' : 'button';
  return (
    <Item
      role="menuitem"
      class="menu__item"
      tabIndex={-1}
      href={item.href}
      target={item.href?.startsWith('mailto:') === false ? '_blank' : undefined}
      rel={item.href && 'noopener'}
      aria-disabled={item.disabled ? 'true' : undefined}
      onClick={() => onSelect(item)}
    >
      {item.label}
    </Item>
  );
}

/**
 * A menu button (WAI-ARIA menu-button pattern): the button opens the menu with Enter, Space or Down (first item) or
 * Up (last item); in it, the arrows move and wrap, Home and End jump, Escape closes it (only it: the panel stays
 * open) and returns focus to the button, and Tab closes it and moves on. Focus leaving it (a tap elsewhere on a
 * phone) closes it too. Positioned with logical properties, so it opens under the button on either side in RTL.
 */
export function Menu({ label, icon, items }: { label: string; icon: ComponentChildren; items: readonly MenuItem[] }) {
  const [entry, setEntry] = useState<Entry>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const open = entry !== null;
  const entries = () => [...(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useLayoutEffect(() => {
    if (entry) entries()[entry === 'first' ? 0 : items.length - 1]?.focus();
  }, [entry]);

  const close = (refocus: boolean) => {
    setEntry(null);
    if (refocus) button.current?.focus();
  };
  const select = (item: MenuItem) => {
    if (item.disabled) return;
    close(true);
    item.onSelect();
  };

  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    setEntry(event.key === 'ArrowDown' ? 'first' : 'last');
  };
  const onMenuKey = (event: KeyboardEvent) => {
    if (moveFocus(event, entries())) return;
    if (event.key === 'Escape') {
      // The panel's own Escape (mount/chat.ts) would close the whole panel.
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') close(false);
    else if (event.key === ' ' && event.target instanceof HTMLAnchorElement) {
      // A link answers Enter by itself; in a menu, Space activates an item too.
      event.preventDefault();
      event.target.click();
    }
  };
  const onFocusOut = (event: FocusEvent) => {
    const next = event.relatedTarget as Node | null;
    if (open && !(event.currentTarget as Element).contains(next)) setEntry(null);
  };

  return (
    <div onFocusOut={onFocusOut}>
      <button
        ref={button}
        class="icon-button"
        part={PARTS.menu}
        id="askbox-menu-button"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? 'askbox-menu' : undefined}
        onClick={() => (open ? close(false) : setEntry('first'))}
        onKeyDown={onButtonKey}
      >
        {icon}
      </button>
      {open && (
        <div
          ref={list}
          id="askbox-menu"
          class="menu"
          role="menu"
          aria-labelledby="askbox-menu-button"
          onKeyDown={onMenuKey}
        >
          {items.map((item) => (
            <MenuEntry key={item.label} item={item} onSelect={select} />
          ))}
        </div>
      )}
    </div>
  );
}
