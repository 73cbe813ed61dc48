<?php
// The abuse limits and their store: token buckets in one SQLite database shared by every PHP worker, and the
// stream tokens already spent.

/** Takes one token from every bucket of the action, or answers 429 with Retry-After; null when it may proceed. */
function askbox_limit(array $c, string $action, ?string $visitor): ?int
{
    $l = $c['limits'];
    if ($l === false) return null;
    $wait = askbox_take(askbox_db($c), askbox_limit_checks($l, $action, askbox_client_ip($c), $visitor), askbox_now_ms());
    if ($wait <= 0) return null;
    $seconds = max(1, (int) ceil($wait / 1000));
    $noun = ASKBOX_CONTRACT['limitNouns'][$action];
    askbox_metric_refusal(['askbox.refusal.reason' => 'limit', 'askbox.limit.action' => $action]);
    return askbox_send(429, ['message' => str_replace(['{noun}', '{seconds}'], [$noun, (string) $seconds], ASKBOX_CONTRACT['limitMessage'])], ['Retry-After' => (string) $seconds]);
}

/**
 * The buckets an action takes from, by the contract's LIMIT_BUCKETS: [key, capacity, tokens per second] each; the
 * daily caps refill over 24 hours. A visitor bucket is skipped without a visitor: one bucket shared by every
 * visitor-less request would let one client starve every new visitor of the site.
 */
function askbox_limit_checks(array $l, string $action, string $ip, ?string $visitor): array
{
    $checks = [];
    foreach (ASKBOX_CONTRACT['limitBuckets'][$action] as ['limit' => $name, 'subject' => $subject, 'refill' => $refill]) {
        if ($subject === 'visitor' && $visitor === null) continue;
        $key = str_replace('{' . $subject . '}', $subject === 'ip' ? $ip : $visitor, ASKBOX_CONTRACT['bucketKeys'][$name]);
        $checks[] = $refill === 'day' ? [$key, (float) $l[$name], $l[$name] / 86400] : [$key, (float) $l[$name]['burst'], $l[$name]['perMinute'] / 60];
    }
    return $checks;
}

/** The limit store cannot answer: the proxy cannot tell whether a request is within its limits. */
final class AskboxLimitStoreError extends RuntimeException
{
}

/**
 * The store: one SQLite database (PDO, WAL, a busy deadline) in `storeDir`, shared by every PHP worker of the site.
 * SECURITY: it holds visitors' IP addresses, so the folder is made 0700 and the file 0600, and the default folder
 * is outside the system's temporary folder. Every failure is an AskboxLimitStoreError.
 */
function askbox_db(array $c): PDO
{
    static $open = [];
    return $open[$c['storeDir']] ??= askbox_db_open($c['storeDir']);
}

/**
 * Opens (and on first use creates) the store in `$dir`. Each PHP worker keeps one persistent connection to it:
 * opening SQLite, and checkpointing its WAL when the last connection closes, cost 1.1 ms of the 1.3 ms a request
 * spent on the store. The connection is named after the file's device and inode, so a file replaced under a
 * running site is opened afresh, never written through a stale handle.
 */
function askbox_db_open(string $dir): PDO
{
    if (!class_exists('PDO') || !in_array('sqlite', PDO::getAvailableDrivers(), true)) throw new AskboxLimitStoreError('PDO SQLite is missing: install php-sqlite3 (pdo_sqlite).');
    if (!is_dir($dir) && !@mkdir($dir, 0700, true) && !is_dir($dir)) throw new AskboxLimitStoreError("The store folder $dir cannot be created (storeDir).");
    $file = $dir . '/askbox-store.sqlite';
    if (!is_file($file)) {
        $mask = umask(0077);
        $fp = @fopen($file, 'x');
        umask($mask);
        if ($fp !== false) fclose($fp);
    }
    $stat = @stat($file);
    if ($stat === false) throw new AskboxLimitStoreError("The store $file cannot be made.");
    if (($stat['mode'] & 0077) !== 0) @chmod($file, 0600);
    try {
        $db = new PDO('sqlite:' . $file, null, null, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION, PDO::ATTR_PERSISTENT => "askbox:{$stat['dev']}:{$stat['ino']}"]);
        // A connection this worker has set up already: synchronous = NORMAL is its set-up's last step.
        if ((int) $db->query('PRAGMA synchronous')->fetchColumn() === 1) return $db;
        $db->exec('PRAGMA busy_timeout = ' . ASKBOX_STORE_WAIT_MS);
        // 2: people's conversations (people.php) beside the buckets; a version 1 store gains their tables.
        if ((int) $db->query('PRAGMA user_version')->fetchColumn() !== 2) {
            // 1 KiB pages: a take rewrites a few scattered rows, and each one costs its page in the WAL.
            $db->exec('PRAGMA page_size = 1024');
            $db->exec('PRAGMA journal_mode = WAL');
            $db->exec('BEGIN IMMEDIATE');
            $db->exec('CREATE TABLE IF NOT EXISTS buckets (k TEXT PRIMARY KEY, t REAL NOT NULL, a INTEGER NOT NULL, e INTEGER NOT NULL) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS buckets_e ON buckets (e);
                CREATE TABLE IF NOT EXISTS spent (k TEXT PRIMARY KEY, e INTEGER NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER NOT NULL) WITHOUT ROWID;
                INSERT OR IGNORE INTO meta VALUES (\'buckets\', 0);
                CREATE TABLE IF NOT EXISTS conversations (p TEXT NOT NULL, id TEXT NOT NULL, bot TEXT NOT NULL, name TEXT NOT NULL, created TEXT NOT NULL, UNIQUE (p, id));
                CREATE TABLE IF NOT EXISTS people (p TEXT PRIMARY KEY, used INTEGER NOT NULL) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS people_used ON people (used);
                PRAGMA user_version = 2;');
            $db->exec('COMMIT');
        }
        // askbox_db_begin waits for the write lock itself; nothing else here waits on another worker (WAL).
        $db->exec('PRAGMA busy_timeout = 0');
        // WAL: a reader never waits for the writer; NORMAL: a power cut may lose the last takes, never corrupt.
        $db->exec('PRAGMA synchronous = NORMAL');
    } catch (PDOException $error) {
        throw new AskboxLimitStoreError("The store $file cannot be used: " . $error->getMessage(), 0, $error);
    }
    return $db;
}

/**
 * Takes the write lock within ASKBOX_STORE_WAIT_MS. SQLite's own busy handler sleeps 1, 2, 5, 10… 100 ms between
 * tries, so under 8 busy workers a waiter sleeps long after the lock is free (p99 of 200 ms measured); trying again
 * every 50 to 250 µs keeps the wait near the holder's sub-millisecond transaction.
 */
function askbox_db_begin(PDO $db): void
{
    $end = hrtime(true) + ASKBOX_STORE_WAIT_MS * 1000000;
    while (true) {
        try {
            $db->exec('BEGIN IMMEDIATE');
            return;
        } catch (PDOException $error) {
            // SQLITE_BUSY (5) is another worker's write: wait a little; anything else, or past the deadline, fails.
            if (($error->errorInfo[1] ?? null) !== 5 || hrtime(true) >= $end) throw $error;
            usleep(random_int(50, 250));
        }
    }
}

/**
 * Marks the connection whose transaction is open (null: none). A shutdown function rolls it back if the request
 * dies inside it (a timeout, exhausted memory): the persistent connection outlives the request, and an open
 * transaction on it would hold every other worker's writes until this worker's next request.
 */
function askbox_db_pending(?PDO $db): void
{
    static $pending = null, $armed = false;
    $pending = $db;
    if ($armed) return;
    $armed = true;
    register_shutdown_function(static function () use (&$pending): void {
        if ($pending === null) return;
        try {
            $pending->exec('ROLLBACK');
        } catch (PDOException) {
            // SQLite rolled back by itself already; there is nothing left to release.
        }
    });
}

/** Runs `$work` in one write transaction (BEGIN IMMEDIATE: no deadlock between two workers' upgrades). */
function askbox_db_write(PDO $db, callable $work): mixed
{
    try {
        askbox_db_begin($db);
        askbox_db_pending($db);
        try {
            $result = $work($db);
            $db->exec('COMMIT');
            return $result;
        } catch (Throwable $error) {
            try {
                $db->exec('ROLLBACK');
            } catch (PDOException) {
                // SQLite may have rolled back by itself (a full disk); the first error is the one to report.
            }
            throw $error;
        } finally {
            askbox_db_pending(null);
        }
    } catch (PDOException $error) {
        throw new AskboxLimitStoreError('The store cannot be written: ' . $error->getMessage(), 0, $error);
    }
}

/**
 * Takes one token from every bucket of `$checks` ([key, capacity, tokens per second] each), all or nothing, with
 * the JavaScript store's arithmetic; answers the wait in ms (0: taken). Buckets that would be full again are
 * dropped; beyond `$cap` buckets, those soonest full again go first (the lenient side, as the memory store).
 */
function askbox_take(PDO $db, array $checks, int $now, int $cap = ASKBOX_MAX_BUCKETS): int
{
    return askbox_db_write($db, static function (PDO $db) use ($checks, $now, $cap): int {
        // One read and one write for all the buckets: each statement costs more than the rows it touches.
        $keys = array_column($checks, 0);
        $read = $db->prepare('SELECT k, t, a FROM buckets WHERE k IN (' . implode(', ', array_fill(0, count($keys), '?')) . ')');
        $read->execute($keys);
        $states = [];
        foreach ($read->fetchAll(PDO::FETCH_NUM) as [$key, $tokens, $at]) $states[$key] = [(float) $tokens, (int) $at];
        $levels = [];
        $wait = 0;
        foreach ($checks as [$key, $capacity, $rate]) {
            $s = $states[$key] ?? null;
            $tokens = $s ? min($capacity, $s[0] + max(0, $now - $s[1]) / 1000 * $rate) : $capacity;
            $levels[$key] = $tokens;
            if ($tokens < 1) $wait = max($wait, (int) ceil((1 - $tokens) / $rate * 1000));
        }
        if ($wait > 0) return $wait;
        $rows = [];
        foreach ($checks as [$key, $capacity, $rate]) array_push($rows, $key, $levels[$key] - 1, $now, $now + (int) ceil($capacity / $rate * 1000));
        $db->prepare('INSERT INTO buckets (k, t, a, e) VALUES ' . implode(', ', array_fill(0, count($checks), '(?, ?, ?, ?)'))
            . ' ON CONFLICT (k) DO UPDATE SET t = excluded.t, a = excluded.a, e = excluded.e')->execute($rows);
        // Only a take that adds buckets grows the table, so only such a take sweeps out those full again.
        $change = count(array_diff_key(array_flip($keys), $states));
        if ($change === 0) return 0;
        $gone = $db->prepare('DELETE FROM buckets WHERE e <= ?');
        $gone->execute([$now]);
        $change -= $gone->rowCount();
        $count = (int) $db->query('SELECT v FROM meta WHERE k = \'buckets\'')->fetchColumn() + $change;
        if ($count > $cap) {
            $count -= $db->exec('DELETE FROM buckets WHERE k IN (SELECT k FROM buckets ORDER BY e LIMIT ' . ($count - $cap) . ')');
        }
        $db->prepare('UPDATE meta SET v = ? WHERE k = \'buckets\'')->execute([max(0, $count)]);
        return 0;
    });
}

/** Marks a stream token used until `$expires` (ms); false when it was used already (a replay). */
function askbox_spend(PDO $db, string $token, int $expires, int $now): bool
{
    return askbox_db_write($db, static function (PDO $db) use ($token, $expires, $now): bool {
        $db->prepare('DELETE FROM spent WHERE e <= ?')->execute([$now]);
        $mark = $db->prepare('INSERT OR IGNORE INTO spent (k, e) VALUES (?, ?)');
        $mark->execute([hash('sha256', $token), $expires]);
        return $mark->rowCount() === 1;
    });
}
