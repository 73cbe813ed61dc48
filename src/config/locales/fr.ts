/** French (français), one string per line in the order of lineKeys() (see ../locale.ts). */
export const fr = `
Ouvrir le chat
Fermer le chat
Fermer
Commencer une nouvelle conversation
Envoyer le message
Arrêter la génération
Votre message
Fil de discussion
Aller au dernier message
Sources consultées
Réflexion…
Arrêté.
Réessayer
Masquer
L’assistant n’a pas pu répondre cette fois.
Cette réponse a été signalée par la politique de contenu.
Vous
L’assistant
Votre message est trop long.
Vous envoyez des messages trop vite. Patientez {wait} puis réessayez.
Copier la réponse
Copier le code
Copié
Questions suggérées
Conversation effacée.
Annuler
Le chat n’est pas configuré correctement.
Le service de chat a refusé la demande. Veuillez réessayer plus tard.
Impossible de joindre le service de chat. Vérifiez votre connexion et réessayez.
Une erreur s’est produite. Veuillez réessayer.
Trop de messages à la fois. Patientez un instant et réessayez.
La limite de messages est atteinte. Veuillez réessayer plus tard.
La réponse a été interrompue. Veuillez réessayer.
Cette conversation n’est plus disponible.
Posez-nous vos questions
Bonjour ! Comment puis-je vous aider aujourd’hui ?
Votre question…
`;
