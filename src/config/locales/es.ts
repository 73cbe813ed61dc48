/** Spanish (español): one string per line, under the keys of PACK_KEYS (./index.ts), in order, kept short. */
export const es = `
Chat
Cerrar
Nueva conversación
Enviar
Detener
Mensaje
Conversación
Ir al último mensaje
Fuentes
Pensando…
Detenido.
Reintentar
Ocultar
Sin respuesta esta vez.
Marcado por la política de contenido.
Tú
Asistente
Mensaje demasiado largo.
Demasiado rápido. Espera {wait}.
Demasiadas conversaciones nuevas. Espera {wait}.
Copiar respuesta
Copiar código
Copiado
Sugerencias
Conversación borrada.
Deshacer
Ahora no podemos responder nuevas preguntas.
Contáctanos
Sigo trabajando…
Código
Tabla
{count} sin leer
Cargando…
No se pudo cargar el chat.
Comprueba tu conexión e inténtalo de nuevo.
Esperando conexión…
Cerrar el saludo
Este chat no está disponible ahora.
Solicitud rechazada.
Sin conexión.
Algo salió mal.
Demasiados mensajes.
Respuesta interrumpida.
Conversación no disponible.
Pregúntanos
¡Hola! ¿En qué puedo ayudarte?
Tu pregunta…
Más acciones
Copiar conversación
Descargar conversación
Eliminar esta conversación
¿Eliminar esta conversación para siempre? No se podrá recuperar.
Eliminar
Cancelar
No se pudo eliminar la conversación. No se ha perdido nada; inténtelo de nuevo.
Conversación eliminada.
Útil
No útil
Gracias por su opinión.
No se pudo enviar su opinión.
¿Qué falló? (opcional)
Enviar
Omitir
Hablar con una persona
Conversaciones
Volver al chat
Actual
Aún no hay conversaciones.
Antes de chatear
Aceptar
Rechazar
Acepta para empezar a chatear.
Gracias. Ya puedes chatear.
Has rechazado, así que el chat está desactivado. No se envió nada de lo que escribiste.
Volver a leerlo
`;
