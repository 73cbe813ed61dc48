// History: a returning visitor with a 200-message conversation opens the panel.
import type { Browser } from 'playwright-core';
import { W } from '../e2e/harness';
import { AFTER_LOAD_MS } from './browser-boot';
import { HISTORY_EXCHANGES } from './browser-fixtures';
import { PROXY_PATH } from './browser-host';
import { openBenchPage, timeClick, waitAfterLoad } from './browser-page';

/** A conversation as the widget stores it. */
export interface StoredConversation {
  id: string;
  grant: string;
}

export interface HistorySample {
  /** Click → every message of the history rendered and painted (wall time; includes fetching the pages of it). */
  visibleMs: number;
  longestTaskMs: number;
  /** Main-thread CPU time from the click to all visible. */
  taskMs: number;
  heapAfterGcBytes: number;
}

/**
 * Creates a conversation through the proxy (`proxyUrl`) and fills it with HISTORY_EXCHANGES questions, each answered
 * by the scenario's next history reply (synchronous sends: nothing is streamed). One conversation serves every run:
 * opening the panel only reads it.
 */
export async function seedHistory(proxyUrl: string, botId: string): Promise<StoredConversation> {
  const json = { 'content-type': 'application/json' };
  const created = await fetch(`${proxyUrl}/conversations`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ name: 'Browser benchmark', bot_id: botId }),
  });
  const body = (await created.json()) as { data?: { id?: string }; meta?: { grant?: string } };
  const id = body.data?.id;
  const grant = body.meta?.grant;
  if (!created.ok || !id || !grant) throw new Error(`Creating the history's conversation: ${created.status}`);
  for (let i = 1; i <= HISTORY_EXCHANGES; i++) {
    const sent = await fetch(`${proxyUrl}/messages`, {
      method: 'POST',
      headers: { ...json, 'x-askbox-grant': grant },
      body: JSON.stringify({ content: `Question ${i}: how does the order flow work here?`, conversation_id: id }),
    });
    if (!sent.ok) throw new Error(`Seeding message ${i}: ${sent.status}`);
  }
  return { id, grant };
}

/** The localStorage entry under which the widget of `botId` finds its conversation (src/state/session.ts). */
function storageEntry(botId: string, conversation: StoredConversation): Record<string, string> {
  return {
    [`askbox:v1:conversation:${botId}@${PROXY_PATH}`]: JSON.stringify({
      id: conversation.id,
      grant: conversation.grant,
    }),
  };
}

/** Opens the panel of `url` with `conversation` stored, and times it to the last message painted. */
export async function measureHistory(
  browser: Browser,
  url: string,
  botId: string,
  conversation: StoredConversation,
): Promise<HistorySample> {
  const bench = await openBenchPage(browser, url, storageEntry(botId, conversation));
  try {
    await waitAfterLoad(bench.page, AFTER_LOAD_MS);
    const open = await timeClick(bench, W.launcher, HISTORY_EXCHANGES * 2);
    const tasks = await bench.longTasks(open.clickAt);
    await bench.collectGarbage();
    const collected = await bench.metrics();
    return {
      visibleMs: open.ms,
      longestTaskMs: Math.max(0, ...tasks),
      taskMs: open.taskMs,
      heapAfterGcBytes: collected.heapBytes,
    };
  } finally {
    await bench.close();
  }
}
