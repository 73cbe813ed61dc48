import { describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../../../../demo/simulator/index';
import { setup } from '../../../../helpers/proxy';

/** `GET health`: what a load balancer and the widget's self-diagnosis read, without a call to the service. */
describe('proxy: health', () => {
  it.each([
    ['', { status: 'ok', proxy: 'askbox' }],
    [`?bot_id=${DEMO_BOT_ID}`, { status: 'ok', proxy: 'askbox', bot: true }],
    ['?bot_id=someoneElses', { status: 'ok', proxy: 'askbox', bot: false }],
    ['?bot_id=', { status: 'ok', proxy: 'askbox', bot: false }],
  ])('GET health%s answers %j', async (query, body) => {
    const { call, upstreamCalls } = setup();
    const response = await call('GET', `/health${query}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toStrictEqual(body);
    expect(upstreamCalls).toHaveLength(0);
  });
});
