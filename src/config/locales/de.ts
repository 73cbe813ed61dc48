/** German (Deutsch): one string per line, under the keys of PACK_KEYS (./index.ts), in order, kept short. */
export const de = `
Chat
Schließen
Neues Gespräch
Senden
Stopp
Nachricht
Gespräch
Zur neuesten Nachricht
Quellen
Denkt nach…
Gestoppt.
Erneut versuchen
Ausblenden
Keine Antwort möglich.
Von der Inhaltsrichtlinie markiert.
Sie
Assistent
Nachricht zu lang.
Zu schnell. Bitte {wait} warten.
Zu viele neue Gespräche. Bitte {wait} warten.
Antwort kopieren
Code kopieren
Kopiert
Vorschläge
Gespräch gelöscht.
Rückgängig
Wir können gerade keine neuen Fragen beantworten.
Kontakt
Arbeitet noch…
Codeblock
Tabelle
{count} ungelesen
Wird geladen…
Der Chat konnte nicht geladen werden.
Bitte prüfen Sie Ihre Verbindung und versuchen Sie es erneut.
Warte auf Verbindung…
Begrüßung schließen
Dieser Chat ist gerade nicht verfügbar.
Anfrage abgelehnt.
Keine Verbindung.
Etwas ging schief.
Zu viele Nachrichten.
Antwort unterbrochen.
Gespräch nicht mehr verfügbar.
Fragen Sie uns
Hallo! Wie kann ich helfen?
Ihre Frage…
Weitere Aktionen
Gespräch kopieren
Gespräch herunterladen
Dieses Gespräch löschen
Dieses Gespräch endgültig löschen? Es lässt sich nicht wiederherstellen.
Löschen
Abbrechen
Das Gespräch konnte nicht gelöscht werden. Nichts ging verloren; bitte erneut versuchen.
Gespräch gelöscht.
Hilfreich
Nicht hilfreich
Danke für Ihr Feedback.
Ihr Feedback konnte nicht gesendet werden.
Was war falsch? (optional)
Senden
Überspringen
Mit einer Person sprechen
Gespräche
Zurück zum Chat
Aktuell
Noch keine Gespräche.
Bevor Sie chatten
Zustimmen
Ablehnen
Bitte stimmen Sie zu, um zu chatten.
Danke. Sie können jetzt chatten.
Sie haben abgelehnt, der Chat ist aus. Nichts, was Sie getippt haben, wurde gesendet.
Noch einmal lesen
`;
