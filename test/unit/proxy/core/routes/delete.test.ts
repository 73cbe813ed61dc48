import { describe, expect, it, vi } from 'vitest';
import { setup } from '../../../../helpers/proxy';

/** `DELETE conversations/{id}`: only with the visitor's grant, and the site hears of it through `onDelete`. */
describe('proxy: a deleted conversation leaves the site too', () => {
  it('calls onDelete once the service has deleted it, and never for a refused or failed deletion', async () => {
    const onDelete = vi.fn();
    const proxy = setup({ onDelete });
    const mine = await proxy.start();
    const other = await proxy.start();
    const remove = (id: string, grant: string) =>
      proxy.call('DELETE', `/conversations/${id}`, undefined, { 'x-askbox-grant': grant });
    expect((await remove(mine.id, other.grant)).status).toBe(404);
    expect(onDelete).not.toHaveBeenCalled();
    expect((await remove(mine.id, mine.grant)).status).toBe(200);
    expect(onDelete).toHaveBeenCalledTimes(1);
    expect(onDelete).toHaveBeenCalledWith({ conversationId: mine.id, visitorId: expect.any(String) });
    // Already gone at the service: its 404 passes through, and the site is not told again.
    expect((await remove(mine.id, mine.grant)).status).toBe(404);
    expect(onDelete).toHaveBeenCalledTimes(1);
  });

  it('keeps the service deletion and logs once when onDelete fails', async () => {
    const proxy = setup({ onDelete: () => Promise.reject(new Error('table locked')) });
    const mine = await proxy.start();
    const response = await proxy.call('DELETE', `/conversations/${mine.id}`, undefined, {
      'x-askbox-grant': mine.grant,
    });
    expect(response.status).toBe(200);
    expect(proxy.logs.filter((entry) => entry.level === 'error')).toEqual([
      { level: 'error', event: 'delete', message: 'onDelete failed: Error: table locked' },
    ]);
  });
});
