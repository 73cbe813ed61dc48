<?php
// The wire contract: ASKBOX_CONTRACT, written between the two marker lines from src/protocol/contract.ts when
// `npm run build:php` joins the parts, then the names the code reads it by.

// <askbox-contract> Generated from src/protocol/contract.ts by `npm run build:php`: do not edit.
// </askbox-contract>

const ASKBOX_ID = '~' . ASKBOX_CONTRACT['idPattern'] . '~';
const ASKBOX_MAX_BODY = ASKBOX_CONTRACT['fields']['bodyMaxBytes'];
const ASKBOX_MAX_DEPTH = ASKBOX_CONTRACT['fields']['jsonDepthMax'];
const ASKBOX_MAX_NAME = ASKBOX_CONTRACT['fields']['nameMax'];
/** The longest message the service takes (cody-api.md, endpoint 19), in code points. */
const ASKBOX_MAX_CONTENT = ASKBOX_CONTRACT['fields']['contentMax'];
/** The most an upstream JSON answer may weigh; past it the answer is a 502 (a hostile service cannot exhaust memory). */
const ASKBOX_MAX_UPSTREAM_JSON = ASKBOX_CONTRACT['service']['jsonMaxBytes'];
/** The longest chain of redirects followed to reach a stream. */
const ASKBOX_MAX_STREAM_HOPS = ASKBOX_CONTRACT['service']['streamHopsMax'];
const ASKBOX_DEFAULT_UPSTREAM = ASKBOX_CONTRACT['service']['upstream'];
const ASKBOX_HOST = '~' . ASKBOX_CONTRACT['hostPattern'] . '~';
/** The abuse limits by default, as the JavaScript proxy's DEFAULT_LIMITS. */
const ASKBOX_DEFAULT_LIMITS = ASKBOX_CONTRACT['defaultLimits'];
/** Buckets kept at most, as the memory store: beyond it those soonest full again are forgotten. */
const ASKBOX_MAX_BUCKETS = ASKBOX_CONTRACT['storeSizes']['buckets'];
/** How long a request waits for another worker's write before the store counts as unable to answer. */
const ASKBOX_STORE_WAIT_MS = ASKBOX_CONTRACT['defaultTimeouts']['storeMs'];
/** The Retry-After of a 503 when the store cannot answer. */
const ASKBOX_STORE_RETRY_SECONDS = ASKBOX_CONTRACT['busyRetrySeconds'];
const ASKBOX_BASE_HEADERS = ASKBOX_CONTRACT['baseHeaders'];
