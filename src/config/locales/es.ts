/** Spanish (español), one string per line in the order of lineKeys() (see ../locale.ts). */
export const es = `
Abrir el chat
Cerrar el chat
Cerrar
Empezar una conversación nueva
Enviar mensaje
Detener la respuesta
Mensaje
Conversación
Ir al último mensaje
Fuentes
Pensando…
Detenido.
Reintentar
Descartar
El asistente no pudo responder esta vez.
La política de contenido marcó esta respuesta.
Tú
Asistente
Tu mensaje es demasiado largo.
Estás enviando mensajes demasiado rápido. Espera {wait} y vuelve a intentarlo.
Copiar respuesta
Copiar código
Copiado
Preguntas sugeridas
Conversación borrada.
Deshacer
El chat no está configurado correctamente.
El servicio de chat rechazó la solicitud. Inténtalo más tarde.
No se pudo conectar con el servicio de chat. Revisa tu conexión e inténtalo de nuevo.
Algo salió mal. Inténtalo de nuevo.
Demasiados mensajes a la vez. Espera un momento e inténtalo de nuevo.
Se alcanzó el límite de mensajes. Inténtalo más tarde.
La respuesta se interrumpió. Inténtalo de nuevo.
Esta conversación ya no está disponible.
Pregúntanos lo que quieras
¡Hola! ¿En qué puedo ayudarte hoy?
Escribe tu pregunta…
`;
