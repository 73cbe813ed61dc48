import { act, fireEvent, render } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONFIRMATION_MS, useConfirmation } from '../../../src/ui/confirmation';

/** A button that confirms what it did with "Done". */
function Confirming() {
  const done = useConfirmation();
  return (
    <>
      <button onClick={done.show}>Act</button>
      {done.shown && <span>Done</span>}
    </>
  );
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('a visible confirmation', () => {
  it('stays CONFIRMATION_MS (at least 2 s, to be read), and the full time again from each new show', async () => {
    expect(CONFIRMATION_MS).toBeGreaterThanOrEqual(2000);
    const view = render(<Confirming />);
    expect(view.queryByText('Done')).toBeNull();
    fireEvent.click(view.getByText('Act'));
    await act(async () => void (await vi.advanceTimersByTimeAsync(CONFIRMATION_MS - 1)));
    expect(view.queryByText('Done')).not.toBeNull();
    fireEvent.click(view.getByText('Act'));
    await act(async () => void (await vi.advanceTimersByTimeAsync(CONFIRMATION_MS - 1)));
    expect(view.queryByText('Done')).not.toBeNull();
    await act(async () => void (await vi.advanceTimersByTimeAsync(1)));
    expect(view.queryByText('Done')).toBeNull();
  });
});
