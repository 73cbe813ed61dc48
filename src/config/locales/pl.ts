/** Polish (polski): one string per line, under the keys of PACK_KEYS (./index.ts), in order, kept short. */
export const pl = `
Czat
Zamknij
Nowa rozmowa
Wyślij
Zatrzymaj
Wiadomość
Rozmowa
Do najnowszej wiadomości
Źródła
Myślę…
Zatrzymano.
Ponów
Ukryj
Brak odpowiedzi.
Oznaczone przez zasady treści.
Ty
Asystent
Wiadomość za długa.
Za szybko. Poczekaj {wait}.
Za dużo nowych rozmów. Poczekaj {wait}.
Kopiuj odpowiedź
Kopiuj kod
Skopiowano
Propozycje
Rozmowa wyczyszczona.
Cofnij
Nie możemy teraz odpowiadać na nowe pytania.
Kontakt z nami
Wciąż pracuję…
Kod
Tabela
Nieprzeczytane: {count}
Ładowanie…
Nie udało się załadować czatu.
Sprawdź połączenie i spróbuj ponownie.
Oczekiwanie na połączenie…
Zamknij powitanie
Ten czat jest teraz niedostępny.
Żądanie odrzucone.
Brak połączenia.
Coś poszło nie tak.
Za dużo wiadomości.
Odpowiedź przerwana.
Rozmowa niedostępna.
Zapytaj nas
Cześć! Jak mogę pomóc?
Twoje pytanie…
Więcej działań
Kopiuj rozmowę
Pobierz rozmowę
Usuń tę rozmowę
Usunąć tę rozmowę na zawsze? Nie da się jej przywrócić.
Usuń
Anuluj
Nie udało się usunąć rozmowy. Nic nie zostało utracone; spróbuj ponownie.
Rozmowa usunięta.
Pomocne
Niepomocne
Dziękujemy za opinię.
Nie udało się wysłać opinii.
Co było nie tak? (opcjonalnie)
Wyślij
Pomiń
Porozmawiaj z człowiekiem
Rozmowy
Wróć do czatu
Bieżąca
Brak rozmów.
Zanim zaczniesz czat
Akceptuję
Odrzucam
Zaakceptuj, aby rozpocząć czat.
Dziękujemy. Możesz teraz czatować.
Odrzucono, więc czat jest wyłączony. Nic z tego, co wpisano, nie zostało wysłane.
Przeczytaj ponownie
`;
