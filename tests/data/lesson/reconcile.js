const READ_ONLY_TOOLS = new Set(["read_file", "grep", "list_dir", "web_search"]);

async function reconcile(cp) {
  const { pendingToolUse, messages } = cp;
  const { id, name, input } = pendingToolUse;

  let toolResult;
  if (READ_ONLY_TOOLS.has(name)) {
    // Herramienta de solo lectura: cero efectos secundarios, se vuelve a ejecutar directamente para obtener el resultado real
    const output = await executeTool(name, input);
    toolResult = { type: "tool_result", tool_use_id: id, content: output };
  } else {
    // Herramienta de alto impacto: consultar primero el registro de efectos para ver si ya se ejecutó (la Lección 4 introduce el registro; aquí va un marcador de posición)
    // const record = await ledger.checkExecuted(id);
    // if (record) toolResult = { type: "tool_result", tool_use_id: id, content: record.result };
    // else toolResult = { type: "tool_result", tool_use_id: id, content: await executeTool(name, input) };
    //
    // En esta lección no hay ningún registro conectado; cuando no puedes saberlo, usa el repliegue conservador:
    toolResult = {
      type: "tool_result",
      tool_use_id: id,
      content: "Estado de ejecución desconocido: el proceso se cayó antes de que esta llamada terminara, así que no hay manera de confirmar si tuvo efecto. Por favor, reevalúa la situación actual.",
      is_error: true,
    };
  }

  messages.push({ role: "user", content: [toolResult] });
  cp.pendingToolUse = null;
  return cp;
}
