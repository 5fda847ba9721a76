// The lesson's saveCheckpoint/loadCheckpoint, copied verbatim from Lección 3 (first code block),
// plus a small driver below so the Python tests can run them:
//   node checkpoint.mjs save cpB|cpC   writes ./checkpoint.json with that state (run it in a scratch folder)
//   node checkpoint.mjs load           loads ./checkpoint.json with loadCheckpoint() and prints it as JSON
// cpB.json and cpC.json are what `save` wrote; tests/test_js_interop.py checks them.

// ---- verbatim from the lesson ----------------------------------------------------------------
import { readFileSync, writeFileSync, renameSync, existsSync } from "node:fs";

const CHECKPOINT_PATH = "./checkpoint.json";
const CHECKPOINT_VERSION = 1;
const MAX_TURNS = 40;

function saveCheckpoint(state) {
  const tmpPath = `${CHECKPOINT_PATH}.tmp`;
  writeFileSync(tmpPath, JSON.stringify(state, null, 2));
  renameSync(tmpPath, CHECKPOINT_PATH); // .tmp + rename: una escritura fallida no puede corromper el último punto de control utilizable
}

function loadCheckpoint() {
  if (!existsSync(CHECKPOINT_PATH)) return null;
  const raw = JSON.parse(readFileSync(CHECKPOINT_PATH, "utf8"));
  if (raw.version !== CHECKPOINT_VERSION) {
    throw new Error(`Versión de punto de control incompatible: el archivo es v${raw.version}, el código es v${CHECKPOINT_VERSION}`);
  }
  return raw; // { version, task, turns, tokensUsed, messages, pendingToolUse }
}
// ---- end of the lesson's code ----------------------------------------------------------------

// The lesson's cpB and cpC with their messages written out (the lesson elides them): the
// conversations the offline model plays over the course notes, stopped where each checkpoint is.
const cpB = {
  version: 1,
  task: "Ayúdame a juntar las notas de reunión de esta semana",
  turns: 7,
  tokensUsed: 19310,
  messages: [
    {
      role: "user",
      content: "Ayúdame a juntar las notas de reunión de esta semana",
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Primero miro qué notas hay.",
        },
        {
          type: "tool_use",
          id: "toolu_01iWFg1BS98kAKni9AJWHIBO",
          name: "list_dir",
          input: {
            path: "notes",
          },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01iWFg1BS98kAKni9AJWHIBO",
          content: "agenda-semana.md\nasistentes.md\ndecisiones-abiertas.md\nglosario.md\nindice.md\nmeeting-08-25.md\nmeeting-08-27.md",
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Leo notes/agenda-semana.md.",
        },
        {
          type: "tool_use",
          id: "toolu_01iYvBdAdFTWkvwEA1tpjDob",
          name: "read_file",
          input: {
            path: "notes/agenda-semana.md",
          },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01iYvBdAdFTWkvwEA1tpjDob",
          content: "# Agenda de la semana del 25 de agosto\n\n- Lunes 25: revisión del lanzamiento de la versión 2.3\n- Miércoles 27: planificación del trimestre\n- Viernes 29: retrospectiva (se canceló)\n",
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Leo notes/asistentes.md.",
        },
        {
          type: "tool_use",
          id: "toolu_01fHp1s9qwTXgI1JWHJbKf6o",
          name: "read_file",
          input: {
            path: "notes/asistentes.md",
          },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01fHp1s9qwTXgI1JWHJbKf6o",
          content: "# Asistentes habituales\n\n- Ana (producto)\n- Bruno (backend)\n- Carla (datos)\n- Diego (soporte)\n",
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Leo notes/decisiones-abiertas.md.",
        },
        {
          type: "tool_use",
          id: "toolu_01oh6aUH9EiaUA5OxP7Mlbww",
          name: "read_file",
          input: {
            path: "notes/decisiones-abiertas.md",
          },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01oh6aUH9EiaUA5OxP7Mlbww",
          content: "# Decisiones abiertas\n\n- ¿Mantenemos la API v1 después de diciembre?\n- ¿Quién se queda con la guardia de fin de mes?\n",
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Leo notes/glosario.md.",
        },
        {
          type: "tool_use",
          id: "toolu_01XTjwMo1IIgA86DJ6caZIRw",
          name: "read_file",
          input: {
            path: "notes/glosario.md",
          },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01XTjwMo1IIgA86DJ6caZIRw",
          content: "# Glosario\n\n- RC: candidata a versión (release candidate).\n- SLO: objetivo de nivel de servicio.\n",
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Leo notes/indice.md.",
        },
        {
          type: "tool_use",
          id: "toolu_01acexb59zo4AkZ7PcvNVYsx",
          name: "read_file",
          input: {
            path: "notes/indice.md",
          },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01acexb59zo4AkZ7PcvNVYsx",
          content: "# Índice de notas\n\nUna nota por reunión, con el nombre meeting-MM-DD.md. Los acuerdos van en líneas que empiezan con «Acuerdo:».\n",
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Leo notes/meeting-08-25.md.",
        },
        {
          type: "tool_use",
          id: "toolu_01A",
          name: "read_file",
          input: {
            path: "./notes/meeting-08-25.md",
          },
        },
      ],
    },
  ],
  pendingToolUse: {
    id: "toolu_01A",
    name: "read_file",
    input: {
      path: "./notes/meeting-08-25.md",
    },
  },
};

const cpC = {
  version: 1,
  task: "Enviarle un correo al equipo para avisarle de las conclusiones",
  turns: 9,
  tokensUsed: 24003,
  messages: [
    {
      role: "user",
      content: "Enviarle un correo al equipo para avisarle de las conclusiones",
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Primero miro qué notas hay.",
        },
        {
          type: "tool_use",
          id: "toolu_01iWFg1BS98kAKni9AJWHIBO",
          name: "list_dir",
          input: {
            path: "notes",
          },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01iWFg1BS98kAKni9AJWHIBO",
          content: "agenda-semana.md\nasistentes.md\ndecisiones-abiertas.md\nglosario.md\nindice.md\nmeeting-08-25.md\nmeeting-08-27.md",
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Leo notes/agenda-semana.md.",
        },
        {
          type: "tool_use",
          id: "toolu_01iYvBdAdFTWkvwEA1tpjDob",
          name: "read_file",
          input: {
            path: "notes/agenda-semana.md",
          },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01iYvBdAdFTWkvwEA1tpjDob",
          content: "# Agenda de la semana del 25 de agosto\n\n- Lunes 25: revisión del lanzamiento de la versión 2.3\n- Miércoles 27: planificación del trimestre\n- Viernes 29: retrospectiva (se canceló)\n",
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Leo notes/asistentes.md.",
        },
        {
          type: "tool_use",
          id: "toolu_01fHp1s9qwTXgI1JWHJbKf6o",
          name: "read_file",
          input: {
            path: "notes/asistentes.md",
          },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01fHp1s9qwTXgI1JWHJbKf6o",
          content: "# Asistentes habituales\n\n- Ana (producto)\n- Bruno (backend)\n- Carla (datos)\n- Diego (soporte)\n",
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Leo notes/decisiones-abiertas.md.",
        },
        {
          type: "tool_use",
          id: "toolu_01oh6aUH9EiaUA5OxP7Mlbww",
          name: "read_file",
          input: {
            path: "notes/decisiones-abiertas.md",
          },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01oh6aUH9EiaUA5OxP7Mlbww",
          content: "# Decisiones abiertas\n\n- ¿Mantenemos la API v1 después de diciembre?\n- ¿Quién se queda con la guardia de fin de mes?\n",
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Leo notes/glosario.md.",
        },
        {
          type: "tool_use",
          id: "toolu_01XTjwMo1IIgA86DJ6caZIRw",
          name: "read_file",
          input: {
            path: "notes/glosario.md",
          },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01XTjwMo1IIgA86DJ6caZIRw",
          content: "# Glosario\n\n- RC: candidata a versión (release candidate).\n- SLO: objetivo de nivel de servicio.\n",
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Leo notes/indice.md.",
        },
        {
          type: "tool_use",
          id: "toolu_01acexb59zo4AkZ7PcvNVYsx",
          name: "read_file",
          input: {
            path: "notes/indice.md",
          },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01acexb59zo4AkZ7PcvNVYsx",
          content: "# Índice de notas\n\nUna nota por reunión, con el nombre meeting-MM-DD.md. Los acuerdos van en líneas que empiezan con «Acuerdo:».\n",
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Leo notes/meeting-08-25.md.",
        },
        {
          type: "tool_use",
          id: "toolu_01VhgfyGgGduOXcO22D0qhWY",
          name: "read_file",
          input: {
            path: "notes/meeting-08-25.md",
          },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01VhgfyGgGduOXcO22D0qhWY",
          content: "# Reunión del lunes 25 de agosto: lanzamiento 2.3\n\nPresentes: Ana, Bruno, Carla.\n\n- La RC2 pasó todas las pruebas de carga.\nAcuerdo: lanzar la versión 2.3 el martes 2 de septiembre.\nAcuerdo: Bruno prepara el plan de vuelta atrás antes del viernes.\n",
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Leo notes/meeting-08-27.md.",
        },
        {
          type: "tool_use",
          id: "toolu_01mTYG5VXtwPlh3EFxitLmS9",
          name: "read_file",
          input: {
            path: "notes/meeting-08-27.md",
          },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01mTYG5VXtwPlh3EFxitLmS9",
          content: "# Reunión del miércoles 27 de agosto: planificación del trimestre\n\nPresentes: Ana, Carla, Diego.\n\n- Soporte recibió 40 tickets sobre la exportación a CSV.\nAcuerdo: priorizar la exportación a CSV en el próximo trimestre.\nAcuerdo: Carla define el SLO de la API antes del 15 de septiembre.\n",
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Tengo las conclusiones; envío el correo a team@example.com.",
        },
        {
          type: "tool_use",
          id: "toolu_01B",
          name: "send_email",
          input: {
            to: "team@example.com",
            subject: "Conclusiones de esta semana",
          },
        },
      ],
    },
  ],
  pendingToolUse: {
    id: "toolu_01B",
    name: "send_email",
    input: {
      to: "team@example.com",
      subject: "Conclusiones de esta semana",
    },
  },
};

const STATES = { cpB, cpC };
const [command, name] = process.argv.slice(2);

if (command === "save" && name in STATES) {
  saveCheckpoint(STATES[name]);
} else if (command === "load") {
  try {
    process.stdout.write(JSON.stringify(loadCheckpoint()));
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
} else {
  process.stderr.write("uso: node checkpoint.mjs save cpB|cpC   |   node checkpoint.mjs load\n");
  process.exit(2);
}
