import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseHandoff } from '../../../src/config/handoff';
import { handoffLink, MAILTO_BODY_MAX } from '../../../src/state/handoff';
import { localMessage, type ChatMessage } from '../../../src/state/messages';

const labels = { title: 'Help', you: 'You', assistant: 'Assistant', sources: 'Sources', formatTime: () => '10:00' };
const message = (role: ChatMessage['role'], text: string) => localMessage(role, text, 'done');
/** A mailto link's body, as encoded in it. */
const encodedBody = (href: string) => /[?&]body=([^&]*)/.exec(href)![1]!;

describe('the way to a person', () => {
  it('opens the contact page, with the conversation id under the parameter the site names', () => {
    const url = { url: 'https://example.com/contact?from=chat', param: 'ticket' };
    expect(handoffLink(url, { messages: [], id: 'conv00000001' }, labels)).toEqual({
      href: 'https://example.com/contact?from=chat&ticket=conv00000001',
      via: 'url',
    });
    expect(handoffLink({ ...url, param: undefined }, { messages: [], id: 'conv00000001' }, labels)?.href).toBe(
      'https://example.com/contact?from=chat',
    );
    expect(handoffLink({}, { messages: [], id: undefined }, labels)).toBeUndefined();
  });

  it('writes an email with a subject and the conversation as its body', () => {
    const link = handoffLink(
      { email: 'help@example.com' },
      {
        messages: [message('user', 'Where is my order?'), message('assistant', 'On its way & soon.')],
        id: 'conv00000001',
      },
      labels,
    )!;
    expect(link.via).toBe('email');
    const url = new URL(link.href);
    expect(url.protocol).toBe('mailto:');
    expect(url.pathname).toBe('help@example.com');
    expect(url.searchParams.get('subject')).toBe('Help (conv00000001)');
    expect(url.searchParams.get('body')).toBe(
      '# Help\n\n**You** · 10:00\n\nWhere is my order?\n\n**Assistant** · 10:00\n\nOn its way & soon.\n',
    );
  });

  it(`cuts a long conversation to ${MAILTO_BODY_MAX} encoded characters, keeping its end behind "…"`, () => {
    const long = [message('user', 'Première question 🙂 '.repeat(80)), message('assistant', 'The last answer.')];
    const link = handoffLink({ email: 'help@example.com' }, { messages: long, id: 'conv00000001' }, labels)!;
    const encoded = encodedBody(link.href);
    expect(encoded.length).toBeLessThanOrEqual(MAILTO_BODY_MAX);
    expect(encoded.length).toBeGreaterThan(MAILTO_BODY_MAX - 20);
    const body = decodeURIComponent(encoded);
    expect(body.startsWith('…')).toBe(true);
    expect(body.endsWith('The last answer.\n')).toBe(true);
  });

  it('writes an email of the title alone, with no body, before the first message', () => {
    const link = handoffLink({ email: 'help@example.com' }, { messages: [], id: undefined }, labels)!;
    expect(link.href).toBe('mailto:help@example.com?subject=Help&body=');
  });

  it('keeps a conversation whole at exactly the limit, and cuts one of plain text to exactly the limit', () => {
    const head = encodeURIComponent('# Help\n\n**You** · 10:00\n\n\n').length;
    const bodyOf = (text: string) => {
      const link = handoffLink(
        { email: 'h@example.com' },
        { messages: [message('user', text)], id: undefined },
        labels,
      );
      return encodedBody(link!.href);
    };
    const whole = bodyOf('a'.repeat(MAILTO_BODY_MAX - head));
    expect(whole.length).toBe(MAILTO_BODY_MAX);
    expect(decodeURIComponent(whole).startsWith('# Help')).toBe(true);
    const cut = bodyOf('a'.repeat(MAILTO_BODY_MAX));
    expect(cut.length).toBe(MAILTO_BODY_MAX);
    expect(decodeURIComponent(cut).startsWith('…a')).toBe(true);
  });
});

afterEach(() => vi.restoreAllMocks());

describe('the handoff settings, read by the chat file', () => {
  it('takes an http(s) page, an email address and a parameter name', () => {
    const input = {
      handoffUrl: 'https://example.com/contact',
      handoffEmail: 'first.last+chat@example.co.uk',
      handoffParam: 'conversation_id',
    };
    expect(parseHandoff(input)).toEqual({
      url: 'https://example.com/contact',
      email: 'first.last+chat@example.co.uk',
      param: 'conversation_id',
    });
    expect(parseHandoff({})).toEqual({ url: undefined, email: undefined, param: undefined });
  });

  it.each([
    ['handoffUrl', 'javascript:alert(1)'],
    ['handoffUrl', '/contact'],
    ['handoffEmail', 'help@example.com?bcc=them@example.com'],
    ['handoffEmail', 'not an address'],
    ['handoffEmail', 'help@localhost'],
    ['handoffParam', 'a&b=c'],
  ])('leaves "Talk to a person" out for %s %j, with one console error', (key, value) => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(parseHandoff({ handoffUrl: 'https://example.com/help', [key]: value })).toEqual({});
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0]?.[0])).toContain(`data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  });
});
