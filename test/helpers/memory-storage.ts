/**
 * A store held in memory for the life of a test: what the widget reads and writes, without a browser. The widget's
 * own memory store (the one a signed-in person's chat uses), under the name the tests know it by.
 */
export { createMemoryStore as createMemoryStorage } from '../../src/state/storage';
