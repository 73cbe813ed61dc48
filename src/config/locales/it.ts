/** Italian (italiano), one string per line in the order of lineKeys() (see ../locale.ts). */
export const it = `
Apri la chat
Chiudi la chat
Chiudi
Inizia una nuova conversazione
Invia messaggio
Interrompi la risposta
Messaggio
Conversazione
Vai all’ultimo messaggio
Fonti
Sto pensando…
Interrotta.
Riprova
Ignora
L’assistente non è riuscito a rispondere questa volta.
Questa risposta è stata segnalata dalle norme sui contenuti.
Tu
Assistente
Il messaggio è troppo lungo.
Stai inviando messaggi troppo velocemente. Attendi {wait} e riprova.
Copia risposta
Copia codice
Copiato
Domande suggerite
Conversazione cancellata.
Annulla
La chat non è configurata correttamente.
Il servizio di chat ha rifiutato la richiesta. Riprova più tardi.
Impossibile raggiungere il servizio di chat. Controlla la connessione e riprova.
Qualcosa è andato storto. Riprova.
Troppi messaggi insieme. Attendi un momento e riprova.
È stato raggiunto il limite di messaggi. Riprova più tardi.
La risposta si è interrotta. Riprova.
Questa conversazione non è più disponibile.
Chiedici qualsiasi cosa
Ciao! Come posso aiutarti oggi?
Scrivi la tua domanda…
`;
