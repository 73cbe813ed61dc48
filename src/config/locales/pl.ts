/** Polish (polski), one string per line in the order of lineKeys() (see ../locale.ts). */
export const pl = `
Otwórz czat
Zamknij czat
Zamknij
Rozpocznij nową rozmowę
Wyślij wiadomość
Zatrzymaj odpowiedź
Wiadomość
Rozmowa
Przejdź do najnowszej wiadomości
Źródła
Myślę…
Zatrzymano.
Spróbuj ponownie
Ukryj
Asystent tym razem nie mógł odpowiedzieć.
Ta odpowiedź została oznaczona przez zasady dotyczące treści.
Ty
Asystent
Wiadomość jest za długa.
Wysyłasz wiadomości zbyt szybko. Poczekaj {wait} i spróbuj ponownie.
Kopiuj odpowiedź
Kopiuj kod
Skopiowano
Proponowane pytania
Rozmowa wyczyszczona.
Cofnij
Czat nie jest poprawnie skonfigurowany.
Usługa czatu odrzuciła żądanie. Spróbuj ponownie później.
Nie można połączyć się z usługą czatu. Sprawdź połączenie i spróbuj ponownie.
Coś poszło nie tak. Spróbuj ponownie.
Zbyt wiele wiadomości naraz. Poczekaj chwilę i spróbuj ponownie.
Osiągnięto limit wiadomości. Spróbuj ponownie później.
Odpowiedź została przerwana. Spróbuj ponownie.
Ta rozmowa nie jest już dostępna.
Zapytaj nas o cokolwiek
Cześć! W czym mogę dziś pomóc?
Wpisz pytanie…
`;
