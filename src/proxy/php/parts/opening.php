<?php
/**
 * Askbox token proxy for PHP 8.1+ (shared hosting, WordPress): the same routes, policy and grants as the
 * JavaScript proxy (src/proxy/core/proxy.ts), in one self-contained file with no extension beyond PHP's defaults
 * (json, hash, openssl, pdo_sqlite; upstream calls use PHP's own HTTP streams, so allow_url_fopen must be on).
 *
 * Grants are byte-compatible with the Node and Workers proxies (`g1.<conversation>.<bot>.<visitor>.<expiry>.
 * <base64url HMAC-SHA256>`), so a site can switch runtimes without breaking stored conversations.
 *
 * Use: copy this file next to a small entry script and call askbox_proxy_handle() with your settings:
 *
 *   require __DIR__ . '/askbox-proxy.php';
 *   askbox_proxy_handle([
 *       'apiKey' => getenv('CODY_API_KEY'),
 *       'botIds' => ['yiu456ytyUjk'],
 *       'secret' => getenv('ASKBOX_SECRET'), // unset: one is made once and kept in storeDir
 *       'basePath' => '/askbox.php',
 *   ]);
 *
 * Further settings mirror the JavaScript proxy's options (allowedOrigins, publicUrl, grantTtlSeconds,
 * streamTtlSeconds, documentIds, limits, clientIp, timeouts, log, authorize), plus `metricsLog` (true: one JSON line
 * per request to the error log, with the Node proxy's OpenTelemetry names; see askbox_metrics_request), `storeDir` (the folder of the
 * limit store, an SQLite file; default `askbox-data` beside the web root, or ASKBOX_STORE_DIR), `requestPath` (the
 * path to route, when a framework has already taken the URL apart) and `linkBase` (the public URL prefix of the
 * stream links it hands out).
 *
 * This file is joined from src/proxy/php/parts/ by `npm run build:php` (scripts/build-php.ts) in the Askbox
 * repository: a change is made there, in the part it concerns, and this file made again.
 */

declare(strict_types=1);
