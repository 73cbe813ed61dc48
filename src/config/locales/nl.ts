/** Dutch (Nederlands), one string per line in the order of lineKeys() (see ../locale.ts). */
export const nl = `
Chat openen
Chat sluiten
Sluiten
Nieuw gesprek starten
Bericht versturen
Stoppen met genereren
Bericht
Gesprek
Naar het nieuwste bericht
Bronnen
Denkt na…
Gestopt.
Opnieuw proberen
Verbergen
De assistent kon deze keer niet antwoorden.
Dit antwoord is gemarkeerd door het inhoudsbeleid.
Jij
Assistent
Je bericht is te lang.
Je verstuurt te snel berichten. Wacht {wait} en probeer het opnieuw.
Antwoord kopiëren
Code kopiëren
Gekopieerd
Voorgestelde vragen
Gesprek gewist.
Ongedaan maken
De chat is niet goed ingesteld.
De chatdienst heeft het verzoek geweigerd. Probeer het later opnieuw.
Kan de chatdienst niet bereiken. Controleer je verbinding en probeer het opnieuw.
Er ging iets mis. Probeer het opnieuw.
Te veel berichten tegelijk. Wacht even en probeer het opnieuw.
De berichtenlimiet is bereikt. Probeer het later opnieuw.
Het antwoord is onderbroken. Probeer het opnieuw.
Dit gesprek is niet meer beschikbaar.
Stel ons je vraag
Hallo! Waarmee kan ik je vandaag helpen?
Typ je vraag…
`;
