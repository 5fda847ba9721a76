"""What a class run split in shards says: ``autograder grade --shard`` and ``autograder merge``.

Plain data, looked up by :func:`autograder.course.catalogue.text` (see the catalogue for why it lives here).
"""

TEXTS: dict[str, dict[str, str]] = {
    # -- a big class: shards and merge (autograder grade --shard, autograder merge) -------------
    "shard.bad_spec": {
        "es": "«{spec}» no es una parte: escribe I/N, por ejemplo --shard 2/4 (la parte 2 de 4).",
        "en": "«{spec}» is not a shard: write I/N, for example --shard 2/4 (part 2 of 4).",
    },
    "shard.bad_count": {
        "es": "en «{spec}», N (el número de partes) tiene que estar entre 1 y {max}.",
        "en": "in «{spec}», N (the number of parts) must be between 1 and {max}.",
    },
    "shard.bad_index": {
        "es": "en «{spec}», I tiene que estar entre 1 y {count}: las partes se cuentan desde 1.",
        "en": "in «{spec}», I must be between 1 and {count}: parts are counted from 1.",
    },
    "shard.needs_seed": {
        "es": "Con --shard hace falta --seed S, la misma en todas las partes: así todas califican con las mismas "
        "variantes aleatorias y «autograder merge» puede juntarlas.",
        "en": "--shard needs --seed S, the same in every part: so every part grades with the same random "
        "variants and «autograder merge» can join them.",
    },
    "shard.graded.one": {
        "es": "Parte {shard}: la clase tiene 1 alumno, y a esta parte le tocan {mine}.",
        "en": "Part {shard}: the class has 1 learner, and {mine} fall in this part.",
    },
    "shard.graded.other": {
        "es": "Parte {shard}: a esta parte le tocan {mine} de los {n} alumnos de la clase.",
        "en": "Part {shard}: {mine} of the class's {n} learners fall in this part.",
    },
    "merge.no_folder": {
        "es": "«{folder}» no existe o no es una carpeta.",
        "en": "«{folder}» does not exist or is not a folder.",
    },
    "merge.no_results": {
        "es": "En «{folder}» no hay results.json: ¿terminó esa parte? Vuelve a ejecutarla con la misma --seed.",
        "en": "«{folder}» has no results.json: did that part finish? Run it again with the same --seed.",
    },
    "merge.unreadable": {
        "es": "No se pudo leer el results.json de «{folder}» ({reason}).",
        "en": "Could not read the results.json in «{folder}» ({reason}).",
    },
    "merge.garbled": {
        "es": "El results.json de «{folder}» está dañado o no lo escribió autograder ({what}). Vuelve a ejecutar "
        "esa parte con la misma --seed.",
        "en": "The results.json in «{folder}» is damaged or was not written by autograder ({what}). Run that part "
        "again with the same --seed.",
    },
    "merge.where_submission": {"es": "entrega n.º {n}", "en": "submission no. {n}"},
    "merge.where_size": {"es": "demasiado grande", "en": "too large"},
    "merge.where_encoding": {"es": "no es texto UTF-8", "en": "not UTF-8 text"},
    "merge.where_json": {
        "es": "JSON inválido en la línea {line}, columna {col}",
        "en": "invalid JSON at line {line}, column {col}",
    },
    "merge.where_json_deep": {"es": "JSON anidado demasiado hondo", "en": "JSON nested too deep"},
    "merge.not_a_shard": {
        "es": "«{folder}» no es la salida de una parte: se califica con «autograder grade ... --shard I/N --seed S».",
        "en": "«{folder}» is not the output of a part: grade with «autograder grade ... --shard I/N --seed S».",
    },
    "merge.interrupted": {
        "es": "La parte {shard} («{folder}») se interrumpió antes de terminar: vuelve a ejecutarla con la misma "
        "--seed y luego junta las partes.",
        "en": "Part {shard} («{folder}») was interrupted before it finished: run it again with the same --seed, "
        "then merge the parts.",
    },
    "merge.same_folder": {
        "es": "«{folder}» y «{other}» son la misma carpeta: cada parte se junta una sola vez.",
        "en": "«{folder}» and «{other}» are the same folder: each part is merged once.",
    },
    "merge.seed": {
        "es": "Las partes se calificaron con semillas distintas: «{a}» con --seed {sa} y «{b}» con --seed {sb}. "
        "Califica todas las partes con la misma --seed.",
        "en": "The parts were graded with different seeds: «{a}» with --seed {sa} and «{b}» with --seed {sb}. "
        "Grade every part with the same --seed.",
    },
    "merge.version": {
        "es": "Las partes son de versiones distintas del curso: «{a}» es {va} y «{b}» es {vb}. Califica todas las "
        "partes con la misma versión instalada.",
        "en": "The parts come from different course versions: «{a}» is {va} and «{b}» is {vb}. Grade every part "
        "with the same installed version.",
    },
    "merge.version_here": {
        "es": "Las partes son de la versión {theirs} del curso (en «{folder}»), y aquí está instalada la {ours}. "
        "Junta las partes con la misma versión con la que se calificaron.",
        "en": "The parts come from course version {theirs} (in «{folder}»), and {ours} is installed here. Merge "
        "the parts with the version they were graded with.",
    },
    "merge.config": {
        "es": "Las partes se calificaron con configuraciones distintas del curso: «{a}» con {ca} y «{b}» con {cb} "
        "(SHA-256 de los valores). Califica todas las partes con el mismo --config.",
        "en": "The parts were graded under different course configurations: «{a}» with {ca} and «{b}» with {cb} "
        "(SHA-256 of the values). Grade every part with the same --config.",
    },
    "merge.lang": {
        "es": "Las partes tienen idiomas distintos: «{a}» con --lang {la} y «{b}» con --lang {lb}.",
        "en": "The parts are in different languages: «{a}» with --lang {la} and «{b}» with --lang {lb}.",
    },
    "merge.count": {
        "es": "Las partes no dividen la clase igual: «{a}» es la parte {sa} y «{b}» la {sb}. Usa el mismo N en todas.",
        "en": "The parts do not split the class the same way: «{a}» is part {sa} and «{b}» is {sb}. Use the same "
        "N in all of them.",
    },
    "merge.inputs": {
        "es": "«{a}» y «{b}» no calificaron la misma clase (tiene otro número de entregas). Todas las partes "
        "reciben las mismas rutas.",
        "en": "«{a}» and «{b}» did not grade the same class (it has another number of submissions). Every part "
        "gets the same paths.",
    },
    "merge.overlap": {
        "es": "La parte {shard} aparece dos veces: en «{a}» y en «{b}».",
        "en": "Part {shard} appears twice: in «{a}» and in «{b}».",
    },
    "merge.overlap_submission": {
        "es": "La entrega n.º {n} de la clase está en dos partes: «{a}» y «{b}».",
        "en": "Submission no. {n} of the class is in two parts: «{a}» and «{b}».",
    },
    "merge.missing": {
        "es": "Faltan partes: {shards} (de {count}). Junta las {count} carpetas.",
        "en": "Parts are missing: {shards} (of {count}). Merge all {count} folders.",
    },
    "merge.incomplete": {
        "es": "Las partes suman {got} entregas, pero la clase tiene {total}.",
        "en": "The parts add up to {got} submissions, but the class has {total}.",
    },
    "merge.names": {
        "es": "Dos entregas de las partes tienen el mismo nombre de reporte; las partes no son de una misma clase.",
        "en": "Two submissions in the parts share a report name; the parts are not from one class.",
    },
    "merge.out_is_input": {
        "es": "--out «{out}» es una de las carpetas que se juntan; elige otra carpeta.",
        "en": "--out «{out}» is one of the folders being merged; choose another folder.",
    },
    "merge.done": {
        "es": "Se juntaron {shards} partes: {n} alumnos (semilla {seed}).",
        "en": "Merged {shards} parts: {n} learners (seed {seed}).",
    },
    "grade.previous_unreadable": {
        "es": "«{out}» ya tiene una calificación, pero no se puede leer ({why}). Califica en otra carpeta, o "
        "reemplázala con --force --replace.",
        "en": "«{out}» already holds a grading run, but it cannot be read ({why}). Grade into another folder, or "
        "replace it with --force --replace.",
    },
    "grade.choose_syntax": {
        "es": "--choose «{given}»: escribe ALUMNO=ARCHIVO, con el nombre del alumno (o su id del LMS) y el archivo "
        "como lo nombra su fila (o ALUMNO= para volver a la regla).",
        "en": "--choose «{given}»: write LEARNER=FILE, with the learner's name (or LMS id) and the file as their row "
        "names it (or LEARNER= to go back to the rule).",
    },
    "grade.choose_no_learner": {
        "es": "--choose: «{learner}» no es ningún alumno de lo que se califica ahora; escribe su nombre como lo "
        "escribe grades.csv o su id del LMS, y da su entrega (o la clase entera) en la orden.",
        "en": "--choose: «{learner}» is none of the learners graded now; write their name as grades.csv writes it "
        "or their LMS id, and give their submission (or the whole class) to the command.",
    },
    "grade.choose_ambiguous": {
        "es": "--choose: «{learner}» nombra a {n} alumnos; usa su id del LMS ({ids}).",
        "en": "--choose: «{learner}» names {n} learners; use their LMS id ({ids}).",
    },
    "grade.choose_no_file": {
        "es": "--choose: «{file}» no nombra uno solo de los archivos de {learner}; los suyos son: {files}.",
        "en": "--choose: «{file}» does not name exactly one of {learner}'s files; theirs are: {files}.",
    },
    "grade.choice_gone": {
        "es": "Para {learner} se había elegido calificar «{file}», que ya no está en su entrega: se calificó el que "
        "elige la regla, y la elección se olvidó.",
        "en": "For {learner}, «{file}» had been chosen to be graded; it is no longer in their submission: the file "
        "the rule chooses was graded, and the choice was forgotten.",
    },
    "grade.other_seed": {
        "es": "La clase en «{out}» se calificó con la semilla {seed}, no {given}: recalifica con --seed {seed} "
        "(o sin --seed), para que sus alumnos se comparen con los mismos casos, o califica en otra carpeta.",
        "en": "The class in «{out}» was graded with seed {seed}, not {given}: grade again with --seed {seed} (or "
        "without --seed), so its learners are compared on the same cases, or grade into another folder.",
    },
    "grade.other_config": {
        "es": "La clase en «{out}» se calificó con otra configuración del curso (puntos, niveles o límites): "
        "recalifica con la misma --config, o califica en otra carpeta.",
        "en": "The class in «{out}» was graded with another course configuration (points, levels or limits): "
        "grade again with the same --config, or grade into another folder.",
    },
    "grade.other_class.one": {
        "es": "Ninguno de los alumnos dados está en la clase de «{out}» (1 alumno): no se escribió nada. Para "
        "reemplazarla por esta, añade --replace; para calificar esta aparte, usa otra carpeta.",
        "en": "None of the learners given is in the class in «{out}» (1 learner): nothing was written. To replace "
        "it with this one, add --replace; to grade this one apart, use another folder.",
    },
    "grade.other_class.other": {
        "es": "Ninguno de los alumnos dados está en la clase de «{out}» ({n} alumnos): no se escribió nada. Para "
        "reemplazarla por esta, añade --replace; para calificar esta aparte, usa otra carpeta.",
        "en": "None of the learners given is in the class in «{out}» ({n} learners): nothing was written. To "
        "replace it with this one, add --replace; to grade this one apart, use another folder.",
    },
}
