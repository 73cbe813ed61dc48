import { startPhpProxy } from '../helpers/php';
import { defineProxyContract } from './proxy-contract';

/** The contract against the one-file PHP proxy under `php -S`. */
defineProxyContract({ name: 'php', start: (config) => startPhpProxy(config) });
