import { describe, expect, it } from 'vitest';
import { readmeBlock } from '../../helpers/readme';

/** The README's recipes that run the proxy on Node (test/e2e/readme-recipes.spec.ts runs each as written). */
const NODE_RECIPES = ['Node (plain `node:http`)', 'Express or Connect', 'Fastify', 'Watching the proxy'];

describe('README: the Node recipes', () => {
  it.each(NODE_RECIPES)('%s seals stream tokens on node:crypto (nodeAesGcm), a fifth of Web Crypto’s CPU', (recipe) => {
    const code = readmeBlock(recipe, 'js');
    expect(code).toMatch(/^import \{[^}]*\bnodeAesGcm\b[^}]*\} from 'askbox\/proxy\/node';$/m);
    expect(code).toMatch(/^ {2}aesGcm: nodeAesGcm,/m);
  });
});
