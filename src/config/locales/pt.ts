/** Portuguese (português): one string per line, under the keys of PACK_KEYS (./index.ts), in order, kept short. */
export const pt = `
Chat
Fechar
Nova conversa
Enviar
Parar
Mensagem
Conversa
Ir para a última mensagem
Fontes
Pensando…
Interrompida.
Tentar de novo
Ocultar
Sem resposta desta vez.
Sinalizada pela política de conteúdo.
Você
Assistente
Mensagem longa demais.
Rápido demais. Aguarde {wait}.
Muitas conversas novas. Aguarde {wait}.
Copiar resposta
Copiar código
Copiado
Sugestões
Conversa apagada.
Desfazer
No momento não podemos responder novas perguntas.
Fale conosco
Ainda trabalhando…
Código
Tabela
{count} não lida(s)
Carregando…
Não foi possível carregar o chat.
Verifique sua conexão e tente novamente.
Aguardando conexão…
Fechar a saudação
Este chat não está disponível agora.
Pedido recusado.
Sem conexão.
Algo deu errado.
Mensagens demais.
Resposta interrompida.
Conversa indisponível.
Pergunte-nos
Olá! Como posso ajudar?
Sua pergunta…
Mais ações
Copiar conversa
Baixar conversa
Excluir esta conversa
Excluir esta conversa para sempre? Ela não poderá ser recuperada.
Excluir
Cancelar
Não foi possível excluir a conversa. Nada foi perdido; tente novamente.
Conversa excluída.
Útil
Não útil
Obrigado pelo seu feedback.
Não foi possível enviar seu feedback.
O que estava errado? (opcional)
Enviar
Pular
Falar com uma pessoa
Conversas
Voltar ao chat
Atual
Ainda não há conversas.
Antes de conversar
Aceitar
Recusar
Aceite para começar a conversar.
Obrigado. Agora você pode conversar.
Você recusou, então o chat está desativado. Nada do que você digitou foi enviado.
Ler novamente
`;
