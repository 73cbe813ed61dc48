/** Italian (italiano): one string per line, under the keys of PACK_KEYS (./index.ts), in order, kept short. */
export const it = `
Chat
Chiudi
Nuova conversazione
Invia
Interrompi
Messaggio
Conversazione
Vai all’ultimo messaggio
Fonti
Sto pensando…
Interrotta.
Riprova
Nascondi
Nessuna risposta stavolta.
Segnalata dalle norme sui contenuti.
Tu
Assistente
Messaggio troppo lungo.
Troppo veloce. Attendi {wait}.
Troppe nuove conversazioni. Attendi {wait}.
Copia risposta
Copia codice
Copiato
Suggerimenti
Conversazione cancellata.
Annulla
Al momento non possiamo rispondere a nuove domande.
Contattaci
Ci sto ancora lavorando…
Codice
Tabella
{count} non letti
Caricamento…
Impossibile caricare la chat.
Controlla la connessione e riprova.
In attesa di connessione…
Chiudi il saluto
Questa chat non è disponibile ora.
Richiesta rifiutata.
Nessuna connessione.
Qualcosa è andato storto.
Troppi messaggi.
Risposta interrotta.
Conversazione non disponibile.
Chiedici pure
Ciao! Come posso aiutarti?
La tua domanda…
Altre azioni
Copia conversazione
Scarica conversazione
Elimina questa conversazione
Eliminare definitivamente questa conversazione? Non potrà essere recuperata.
Elimina
Annulla
Impossibile eliminare la conversazione. Non è andato perso nulla; riprova.
Conversazione eliminata.
Utile
Non utile
Grazie per il feedback.
Impossibile inviare il feedback.
Cosa non andava? (facoltativo)
Invia
Salta
Parla con una persona
Conversazioni
Torna alla chat
Attuale
Ancora nessuna conversazione.
Prima di chattare
Accetta
Rifiuta
Accetta per iniziare a chattare.
Grazie. Ora puoi chattare.
Hai rifiutato, quindi la chat è disattivata. Nulla di ciò che hai scritto è stato inviato.
Rileggi
`;
