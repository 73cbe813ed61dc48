/** German (Deutsch), one string per line in the order of lineKeys() (see ../locale.ts). */
export const de = `
Chat öffnen
Chat schließen
Schließen
Neues Gespräch beginnen
Nachricht senden
Antwort stoppen
Nachricht
Gespräch
Zur neuesten Nachricht
Quellen
Denkt nach…
Gestoppt.
Erneut versuchen
Ausblenden
Der Assistent konnte diesmal nicht antworten.
Diese Antwort wurde von der Inhaltsrichtlinie markiert.
Sie
Assistent
Ihre Nachricht ist zu lang.
Sie senden zu schnell. Bitte warten Sie {wait} und versuchen Sie es erneut.
Antwort kopieren
Code kopieren
Kopiert
Vorgeschlagene Fragen
Gespräch gelöscht.
Rückgängig
Der Chat ist nicht richtig eingerichtet.
Der Chat-Dienst hat die Anfrage abgelehnt. Bitte versuchen Sie es später erneut.
Der Chat-Dienst ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.
Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.
Zu viele Nachrichten auf einmal. Bitte warten Sie kurz und versuchen Sie es erneut.
Das Nachrichtenlimit ist erreicht. Bitte versuchen Sie es später erneut.
Die Antwort wurde unterbrochen. Bitte versuchen Sie es erneut.
Dieses Gespräch ist nicht mehr verfügbar.
Fragen Sie uns alles
Hallo! Wie kann ich Ihnen heute helfen?
Ihre Frage…
`;
