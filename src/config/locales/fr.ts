/** French (français): one string per line, under the keys of PACK_KEYS (./index.ts), in order, kept short. */
export const fr = `
Chat
Fermer
Nouvelle discussion
Envoyer
Arrêter
Votre message
Discussion
Aller au dernier message
Sources consultées
Réflexion…
Arrêté.
Réessayer
Masquer
Pas de réponse possible.
Signalé par la politique de contenu.
Vous
L’assistant
Message trop long.
Trop rapide. Patientez {wait}.
Trop de nouvelles conversations. Patientez {wait}.
Copier la réponse
Copier le code
Copié
Suggestions
Discussion effacée.
Annuler
Nous ne pouvons pas répondre pour le moment.
Nous contacter
Toujours en cours…
Bloc de code
Tableau
{count} non lu(s)
Chargement…
Impossible de charger le chat.
Vérifiez votre connexion et réessayez.
En attente de connexion…
Fermer le message d’accueil
Ce chat n’est pas disponible pour le moment.
Demande refusée.
Pas de connexion.
Une erreur s’est produite.
Trop de messages.
Réponse interrompue.
Discussion indisponible.
Posez-nous vos questions
Bonjour ! Comment puis-je aider ?
Votre question…
Plus d’actions
Copier la conversation
Télécharger la conversation
Supprimer cette conversation
Supprimer définitivement cette conversation ? Elle ne pourra pas être récupérée.
Supprimer
Annuler
La conversation n’a pas pu être supprimée. Rien n’est perdu ; veuillez réessayer.
Conversation supprimée.
Utile
Pas utile
Merci pour votre avis.
Votre avis n’a pas pu être envoyé.
Qu’est-ce qui n’allait pas ? (facultatif)
Envoyer
Passer
Parler à une personne
Vos conversations
Retour au chat
En cours
Aucune conversation pour l’instant.
Avant de discuter
Accepter
Refuser
Veuillez accepter pour commencer à discuter.
Merci. Vous pouvez discuter maintenant.
Vous avez refusé : le chat est désactivé. Rien de ce que vous avez tapé n’a été envoyé.
Le relire
`;
