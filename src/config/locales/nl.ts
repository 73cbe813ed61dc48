/** Dutch (Nederlands): one string per line, under the keys of PACK_KEYS (./index.ts), in order, kept short. */
export const nl = `
Chat
Sluiten
Nieuw gesprek
Versturen
Stoppen
Bericht
Gesprek
Naar nieuwste bericht
Bronnen
Denkt na…
Gestopt.
Opnieuw
Verbergen
Geen antwoord mogelijk.
Gemarkeerd door het inhoudsbeleid.
Jij
Assistent
Bericht te lang.
Te snel. Wacht {wait}.
Te veel nieuwe gesprekken. Wacht {wait}.
Antwoord kopiëren
Code kopiëren
Gekopieerd
Suggesties
Gesprek gewist.
Ongedaan maken
We kunnen nu geen nieuwe vragen beantwoorden.
Neem contact op
Nog bezig…
Codeblok
Tabel
{count} ongelezen
Laden…
De chat kon niet worden geladen.
Controleer je verbinding en probeer het opnieuw.
Wachten op verbinding…
Begroeting sluiten
Deze chat is nu niet beschikbaar.
Verzoek geweigerd.
Geen verbinding.
Er ging iets mis.
Te veel berichten.
Antwoord onderbroken.
Gesprek niet beschikbaar.
Stel je vraag
Hallo! Waarmee kan ik helpen?
Je vraag…
Meer acties
Gesprek kopiëren
Gesprek downloaden
Dit gesprek verwijderen
Dit gesprek definitief verwijderen? Het kan niet worden teruggehaald.
Verwijderen
Annuleren
Het gesprek kon niet worden verwijderd. Er is niets verloren; probeer het opnieuw.
Gesprek verwijderd.
Nuttig
Niet nuttig
Bedankt voor je feedback.
Je feedback kon niet worden verzonden.
Wat ging er mis? (optioneel)
Versturen
Overslaan
Met een persoon praten
Gesprekken
Terug naar de chat
Huidig
Nog geen gesprekken.
Voordat u chat
Accepteren
Weigeren
Accepteer om te beginnen met chatten.
Bedankt. U kunt nu chatten.
U hebt geweigerd, dus de chat staat uit. Niets van wat u typte is verzonden.
Opnieuw lezen
`;
