<?php
// Signed-in people's conversations: the store's interface (the WordPress plugin brings its own table), and the
// SQLite store in the limits' database, bounded by the contract.

/** A store of each person's conversations. Every failure throws AskboxStoreError (503 busy, one log line). */
interface AskboxPeople
{
    /** Puts `{ id, bot_id, name, created_at }` first in the person's list (once), keeping the newest conversationsMax. */
    public function add(string $person, array $conversation): void;

    /** The person's conversations, newest first: `{ id, bot_id, name, created_at }` each. */
    public function list(string $person): array;

    /** Takes the conversation out of the person's list. */
    public function remove(string $person, string $id): void;
}

/** A store of people's conversations cannot answer: the proxy cannot tell what a person holds (event `people`). */
final class AskboxStoreError extends RuntimeException
{
}

/**
 * People's conversations in the limits' SQLite database (`conversations`, and `people` with when each was last
 * used): at most conversationsMax a person, at most STORE_SIZES.people people, the least recently used going first,
 * and a person unused for a grant's lifetime forgotten (their grants have all expired).
 */
final class AskboxSqlitePeople implements AskboxPeople
{
    public function __construct(private readonly array $c)
    {
    }

    public function add(string $person, array $conversation): void
    {
        $this->write(function (PDO $db, int $now) use ($person, $conversation): void {
            $db->prepare('INSERT OR IGNORE INTO conversations (p, id, bot, name, created) VALUES (?, ?, ?, ?, ?)')
                ->execute([$person, $conversation['id'], $conversation['bot_id'], $conversation['name'], $conversation['created_at']]);
            $db->prepare('DELETE FROM conversations WHERE p = ? AND rowid NOT IN (SELECT rowid FROM conversations WHERE p = ? ORDER BY rowid DESC LIMIT ' . ASKBOX_CONTRACT['identity']['conversationsMax'] . ')')
                ->execute([$person, $person]);
            $touch = $db->prepare('UPDATE people SET used = ? WHERE p = ?');
            $touch->execute([$now, $person]);
            if ($touch->rowCount() === 1) return;
            // A new person: those whose grants have all expired go, then the least recently used beyond the bound.
            $db->prepare('INSERT INTO people (p, used) VALUES (?, ?)')->execute([$person, $now]);
            $expired = $db->prepare('SELECT p FROM people WHERE used <= ?');
            $expired->execute([$now - $this->c['grantTtl'] * 1000]);
            $gone = $expired->fetchAll(PDO::FETCH_COLUMN);
            $over = (int) $db->query('SELECT COUNT(*) FROM people')->fetchColumn() - count($gone) - ASKBOX_CONTRACT['storeSizes']['people'];
            if ($over > 0) array_push($gone, ...$db->query('SELECT p FROM people ORDER BY used LIMIT ' . $over)->fetchAll(PDO::FETCH_COLUMN));
            foreach (array_unique($gone) as $forgotten) {
                $db->prepare('DELETE FROM conversations WHERE p = ?')->execute([$forgotten]);
                $db->prepare('DELETE FROM people WHERE p = ?')->execute([$forgotten]);
            }
        });
    }

    public function list(string $person): array
    {
        return $this->write(function (PDO $db, int $now) use ($person): array {
            $db->prepare('UPDATE people SET used = ? WHERE p = ?')->execute([$now, $person]);
            $read = $db->prepare('SELECT id, name, bot, created FROM conversations WHERE p = ? ORDER BY rowid DESC');
            $read->execute([$person]);
            return array_map(static fn (array $row) => ['id' => $row[0], 'name' => $row[1], 'bot_id' => $row[2], 'created_at' => $row[3]], $read->fetchAll(PDO::FETCH_NUM));
        });
    }

    public function remove(string $person, string $id): void
    {
        $this->write(static function (PDO $db) use ($person, $id): void {
            $db->prepare('DELETE FROM conversations WHERE p = ? AND id = ?')->execute([$person, $id]);
        });
    }

    /** Runs `$work` in one write transaction of the store; any failure is an AskboxStoreError. */
    private function write(callable $work): mixed
    {
        try {
            return askbox_db_write(askbox_db($this->c), static fn (PDO $db) => $work($db, askbox_now_ms()));
        } catch (AskboxLimitStoreError $error) {
            throw new AskboxStoreError($error->getMessage(), 0, $error);
        }
    }
}
