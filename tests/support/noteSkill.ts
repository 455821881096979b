/**
 * A small OS skill as spec YAML: write `line` into ~/notes/`file`. `file` and `line` may use
 * `{{params.…}}` from `params` (YAML under `params:`); tests clone it under ids of their own.
 */
export function noteSkillYaml(o: {
  id: string;
  category: string;
  file: string;
  line: string;
  params?: string;
}): string {
  const { id, category, file, line } = o;
  return `
id: ${id}
title: Write a note file
apps: [os]
category: ${category}
description: Put a given line into a new note file in the home directory.
difficulty: 1
channel: terminal
${o.params ? `params:\n  ${o.params}\n` : ''}nodes:
  - id: instruction
    llm:
      prompt: Ask the agent to write the line "${line}" into ~/notes/${file}.
      output: {text: text}
      offline:
        text:
          explicit: ["Create ~/notes/${file} containing the line: ${line}"]
          natural: ["Please add a file ${file} to my notes folder with the line: ${line}"]
          goal: ["My notes folder should have a file ${file} that says: ${line}"]
  - id: files
    prepare:
      app: os
      target: notes
      open: false
      doc: {entries: [{path: notes/readme.txt, type: file, content: "notes go here\\n"}]}
  - id: solution
    solve:
      - {op: os.write_file, path: "notes/${file}", content: "${line}\\n"}
instruction: "{{instruction.text}}"
rubric:
  checks:
    - {kind: os.content_equals, path: "notes/${file}", content: "${line}\\n"}
  items: [{text: "The note file holds exactly the given line.", checks: [0]}]
`;
}
