/** Portuguese (português), one string per line in the order of lineKeys() (see ../locale.ts). */
export const pt = `
Abrir o chat
Fechar o chat
Fechar
Iniciar nova conversa
Enviar mensagem
Parar a resposta
Mensagem
Conversa
Ir para a última mensagem
Fontes
Pensando…
Interrompida.
Tentar novamente
Dispensar
O assistente não conseguiu responder desta vez.
Esta resposta foi sinalizada pela política de conteúdo.
Você
Assistente
Sua mensagem é longa demais.
Você está enviando mensagens rápido demais. Aguarde {wait} e tente novamente.
Copiar resposta
Copiar código
Copiado
Perguntas sugeridas
Conversa apagada.
Desfazer
O chat não está configurado corretamente.
O serviço de chat recusou o pedido. Tente novamente mais tarde.
Não foi possível acessar o serviço de chat. Verifique sua conexão e tente novamente.
Algo deu errado. Tente novamente.
Muitas mensagens de uma vez. Aguarde um momento e tente novamente.
O limite de mensagens foi atingido. Tente novamente mais tarde.
A resposta foi interrompida. Tente novamente.
Esta conversa não está mais disponível.
Pergunte o que quiser
Olá! Como posso ajudar você hoje?
Digite sua pergunta…
`;
