import { describe, expect, it } from 'vitest';
import type { KeyValueStore } from '../../../src/state/storage';
import { createMemoryStorage } from '../../helpers/memory-storage';
import { createTestModel } from '../../helpers/model';

const CONSENT = 'I agree to the [privacy policy](https://example.com/privacy).';
const CONVERSATION = 'conversation:bot000000001@/askbox';
const CONSENT_KEY = 'consent:bot000000001@/askbox';

/** A memory store that records the key of each write (a removal stores nothing: "new conversation" forgets). */
function recordedStorage(storage = createMemoryStorage()) {
  const writes: string[] = [];
  const store: KeyValueStore = {
    ...storage,
    set: (key, value) => {
      writes.push(key);
      storage.set(key, value);
    },
  };
  return { store, writes };
}

/** A model with the consent gate, over recorded storage. */
function setup(storage?: KeyValueStore) {
  const recorded = recordedStorage(storage);
  const made = createTestModel({ consent: CONSENT, starters: 'Where is my parcel?' }, recorded.store);
  return { ...made, writes: recorded.writes };
}

describe('chat model: the consent gate', () => {
  it('sends, proves and stores nothing before the visitor accepts: the typed text stays in memory', async () => {
    const { model, state, writes, events } = setup();
    model.open();
    model.setDraft('Where is my parcel?');
    await model.send();
    // The visitor's own text stays: the page's does not replace it.
    await model.send('A question from the page');
    expect(model.draft.value).toBe('Where is my parcel?');
    // A box of blank space holds nothing of the visitor's.
    model.setDraft('  \n ');
    await model.send('A question from the page');
    model.newConversation();
    await Promise.resolve();
    expect([state.calls, state.proofs, writes]).toEqual([[], 0, []]);
    expect(model.canSend.value).toBe(false);
    // The page's text waits in the empty box, for the visitor to send after accepting.
    expect(model.draft.value).toBe('A question from the page');
    expect(model.messages.value).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['open']);
  });

  it('after Accept, is ready as an open panel is (a proof solved ahead), and the draft sends only when sent', async () => {
    const { model, state, writes, events, reply } = setup();
    model.open();
    model.setDraft('Where is my parcel?');
    model.consent.accept();
    await Promise.resolve();
    expect(events.at(-1)).toEqual({ type: 'consent', detail: { accepted: true } });
    expect(writes).toEqual([CONSENT_KEY]);
    expect(state.proofs).toBe(1);
    // The draft is kept, not sent by accepting.
    expect([state.calls, model.draft.value, model.canSend.value]).toEqual([[], 'Where is my parcel?', true]);
    const sending = model.send();
    reply('On its way.');
    await sending;
    expect(state.sent).toEqual(['Where is my parcel?']);
    expect(writes).toContain(CONVERSATION);
  });

  it('reads no stored history before the visitor accepts, and reads it once they do', async () => {
    const storage = createMemoryStorage();
    storage.set(CONVERSATION, JSON.stringify({ id: 'conv0000000a', grant: 'grant-a' }));
    const { model, state } = setup(storage);
    model.open();
    await Promise.resolve();
    expect(state.calls).toEqual([]);
    model.consent.accept();
    await Promise.resolve();
    expect(state.calls).toEqual(['list']);
  });

  it('after Decline, stays unusable, storing only the refusal; seeing the text again leads back to Accept', async () => {
    const { model, state, writes, events } = setup();
    model.open();
    model.consent.decline();
    model.setDraft('Hello');
    await model.send();
    expect([model.consent.state.value, model.canSend.value]).toEqual(['declined', false]);
    expect([state.calls, state.proofs, writes]).toEqual([[], 0, [CONSENT_KEY]]);
    expect(events.at(-1)).toEqual({ type: 'consent', detail: { accepted: false } });
    // Accept is offered only with the text in view again.
    model.consent.accept();
    expect(model.consent.state.value).toBe('declined');
    model.consent.reconsider();
    expect(model.consent.state.value).toBe('asking');
    model.consent.accept();
    expect(model.canSend.value).toBe(true);
  });

  it('remembers the choice for the next page view on this browser', () => {
    const storage = createMemoryStorage();
    setup(storage).model.consent.accept();
    const again = setup(storage);
    expect(again.model.consent.state.value).toBe('accepted');
    expect(again.model.canSend.value).toBe(false);
    again.model.setDraft('Hi');
    expect(again.model.canSend.value).toBe(true);
  });

  it('without a consent text, works as before', async () => {
    const { model, state, reply } = createTestModel();
    expect([model.consent.state.value, model.consent.allows.value]).toEqual(['accepted', true]);
    const sending = model.send('Hi');
    reply('Hello.');
    await sending;
    expect(state.sent).toEqual(['Hi']);
  });
});
