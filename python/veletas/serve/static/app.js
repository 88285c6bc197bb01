// The page of `veletas serve`: draws the board the server sends, turns
// clicks into moves with the game's click tree, and follows the game over a
// WebSocket. Nothing here knows the rules of a game: the server names the
// game, draws it, and lists what each click can lead to.

const SVG_NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const page = {
  info: null, // GET /api/info
  game: null, // the last state of the game
  ply: null, // the ply shown; null follows the end of the game
  flipped: false,
  clicks: [], // the clicks of the move being made
  refused: null, // the square of the last refused click, marked until the next click
  node: null, // where those clicks lead in the click tree
  socket: null,
  refreshing: null,
  stale: false,
  hint: null,
  evaluating: false, // an evaluation request is out
  evaluateAgain: false, // the shown position changed meanwhile
  evaluation: null, // the last evaluation received
};

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    const message = data && data.error ? data.error : `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, message);
  }
  return data;
}

function gamePath(suffix = "") {
  return `/api/games/${encodeURIComponent(page.game.id)}${suffix}`;
}

function say(text, notice = false) {
  const box = $("message");
  box.textContent = text || "";
  box.classList.toggle("notice", notice);
}

function failed(error) {
  say(error instanceof ApiError ? error.message : `the server cannot be reached (${error.message})`);
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

// -- drawing -----------------------------------------------------------

function render(state) {
  const previous = page.game;
  // Answers may arrive out of order (a move's answer after the refresh that
  // the bot's reply started): an older version of the game is not shown.
  if (previous && previous.id === state.id && state.version < previous.version) return;
  const same = previous && previous.view.fen === state.view.fen && previous.view.ply === state.view.ply;
  const keep = same ? page.clicks.slice() : [];
  if (!same) page.refused = null;
  page.game = state;
  document.title = `${state.title} · veletas`;
  $("title").textContent = state.title;
  $("move-input").placeholder = `a move: ${gameInfo(state.game).move_example}`;
  $("board").innerHTML = state.view.svg;
  $("board").classList.toggle("playable", Boolean(state.view.clicks));
  page.clicks = [];
  page.node = state.view.clicks;
  for (const name of keep) {
    const next = page.node && page.node.next[name];
    if (!next || typeof next === "string") break;
    page.clicks.push(name);
    page.node = next;
  }
  if (page.hint && page.hint.fen === state.view.fen) drawHint(page.hint); else clearHint();
  highlight();
  renderStatus();
  renderMoves();
  renderButtons();
  const query = new URLSearchParams(state.params).toString();
  history.replaceState(null, "", `/?${query}`);
  $("share").href = `/?${query}`;
  $("download").href = gamePath("/record");
  renderEvaluation();
  if ($("eval-on").checked && !state.thinking) evaluate();
}

// -- evaluation --------------------------------------------------------

function renderEvaluation() {
  const evaluation = page.evaluation;
  const view = page.game.view;
  if (!evaluation || evaluation.id !== page.game.id) {
    $("eval-text").textContent = "Evaluation: not yet";
    $("curve").replaceChildren();
    return;
  }
  if (evaluation.fen === view.fen && evaluation.ply === view.ply) {
    const [first, second] = evaluation.players;
    const chance = evaluation.first;
    $("eval-fill").style.width = `${(100 * chance).toFixed(1)}%`;
    $("eval-bar").setAttribute("aria-valuenow", (100 * chance).toFixed(0));
    $("eval-text").textContent =
      `${first} ${(100 * chance).toFixed(0)}% · ${second} ${(100 * (1 - chance)).toFixed(0)}%`;
  }
  $("curve").innerHTML = evaluation.svg;
}

async function evaluate() {
  // One request at a time; a position shown meanwhile is evaluated next.
  if (page.evaluating) {
    page.evaluateAgain = true;
    return;
  }
  page.evaluating = true;
  try {
    do {
      page.evaluateAgain = false;
      const game = page.game;
      const evaluation = await api("POST", gamePath("/evaluation"), {
        ply: game.view.ply,
        version: game.version,
      });
      // A stale answer (the game changed on its way) waits for the next render.
      if (page.game.id === game.id && !evaluation.stale) {
        page.evaluation = { ...evaluation, id: game.id };
        renderEvaluation();
      }
    } while (page.evaluateAgain);
  } catch (error) {
    failed(error);
  } finally {
    page.evaluating = false;
  }
}

async function evaluateAll() {
  const button = $("eval-all");
  button.disabled = true;
  try {
    const id = page.game.id;
    for (let ply = 0; ply <= page.game.moves.length && page.game.id === id; ply++) {
      if (page.evaluation && page.evaluation.curve[ply] !== undefined && page.evaluation.curve[ply] !== null) continue;
      const evaluation = await api("POST", gamePath("/evaluation"), {
        ply,
        version: page.game.version,
      });
      if (page.game.id !== id || evaluation.stale) break;
      page.evaluation = { ...evaluation, id };
      renderEvaluation();
    }
    if (page.game.id === id) await evaluate();
  } catch (error) {
    failed(error);
  } finally {
    button.disabled = false;
  }
}

function squareElements() {
  return $("board").querySelectorAll("[data-square]");
}

function highlight() {
  const next = page.node ? page.node.next : {};
  for (const element of squareElements()) {
    const name = element.dataset.square;
    element.classList.toggle("target", name in next && !page.clicks.includes(name));
    element.classList.toggle("selected", page.clicks.includes(name));
    element.classList.toggle("refused", name === page.refused);
  }
  const squares = new Set([...squareElements()].map((e) => e.dataset.square));
  const choices = $("choices");
  choices.replaceChildren();
  for (const name of Object.keys(next)) {
    if (squares.has(name)) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = name;
    button.dataset.choice = name;
    button.addEventListener("click", () => click(name));
    choices.append(button);
  }
  const view = page.game ? page.game.view : null;
  let prompt = "";
  if (page.node && view && view.clicks) {
    prompt = capital(page.node.prompt);
    if (page.clicks.length) prompt += " (Esc to start the move again)";
  }
  $("prompt").textContent = prompt;
}

function renderStatus() {
  const state = page.game;
  const view = state.view;
  const status = view.status;
  const parts = [];
  const count = state.moves.length;
  if (view.ply !== count) parts.push(`Move ${view.ply} of ${count}`);
  const score = Object.entries(status.score).map(([colour, n]) => `${colour} ${n}`).join(", ");
  if (view.winner) {
    const how = view.resigned ? " (the other side resigned)" : "";
    parts.push(`${capital(view.winner)} (${view.players[view.winner]}) wins${how}`);
  } else if (view.to_act) {
    // The seat to act, not the colour: under a pie rule one player may place
    // the other colour's stone.
    const who = view.to_act === "human" ? "you" : state.bot.name;
    parts.push(`${capital(status.turn)} to play (${who})`);
    parts.push(`${status.phase}: ${status.detail}`);
  } else {
    parts.push("No move is possible");
  }
  parts.push(`${status.score_name}: ${score}`);
  if (state.thinking === "move") parts.push(`${state.bot.name} is thinking`);
  if (state.thinking === "hint") parts.push("looking for a hint");
  const line = $("status");
  line.textContent = parts.join(" · ");
  line.classList.toggle("thinking", Boolean(state.thinking));
}

function renderMoves() {
  const state = page.game;
  const list = $("moves");
  const items = [];
  const start = document.createElement("li");
  start.append(moveButton(0, "start"));
  items.push(start);
  state.moves.forEach((text, index) => {
    const item = document.createElement("li");
    const button = moveButton(index + 1, text);
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = `${index + 1}.`;
    button.prepend(number, " ");
    item.append(button);
    items.push(item);
  });
  list.replaceChildren(...items);
  const current = list.querySelector('[aria-current="true"]');
  if (current) current.scrollIntoView({ block: "nearest" });
}

function moveButton(ply, text) {
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.ply = String(ply);
  button.textContent = text;
  button.setAttribute("aria-current", String(ply === page.game.view.ply));
  button.addEventListener("click", () => show(ply));
  return button;
}

function renderButtons() {
  const state = page.game;
  const view = state.view;
  const humans = state.seat !== "watch";
  const count = state.moves.length;
  $("undo").disabled = !humans || count === 0;
  $("resign").disabled = !humans || state.over;
  $("hint").disabled = view.to_act !== "human" || Boolean(state.thinking);
  $("stop").disabled = !state.thinking;
  $("continue").hidden = view.ply === count;
  $("first").disabled = view.ply === 0;
  $("prev").disabled = view.ply === 0;
  $("next").disabled = view.ply === count;
  $("last").disabled = view.ply === count;
  $("move-input").disabled = !view.clicks;
}

// -- hints -------------------------------------------------------------

function centreOf(name) {
  const element = $("board").querySelector(`[data-square="${CSS.escape(name)}"]`);
  if (!element) return null;
  const box = element.getBBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2, size: Math.min(box.width, box.height) };
}

function clearHint() {
  page.hint = null;
  $("hints").replaceChildren();
  for (const element of $("board").querySelectorAll(".hints")) element.remove();
}

function drawHint(hint) {
  page.hint = hint;
  const svg = $("board").querySelector("svg");
  for (const element of $("board").querySelectorAll(".hints")) element.remove();
  const group = document.createElementNS(SVG_NS, "g");
  group.setAttribute("class", "hints");
  // The best move last, so that it is drawn on top.
  [...hint.moves].reverse().forEach((move, reversed) => {
    const rank = hint.moves.length - reversed;
    const points = move.squares.map(centreOf).filter(Boolean);
    if (!points.length) return;
    // Small squares (the points of a lattice) get badges no smaller than 44 pixels' worth.
    const size = Math.max(points[0].size, 44);
    if (points.length > 1) {
      const line = document.createElementNS(SVG_NS, "polyline");
      line.setAttribute("class", "hint-line");
      line.setAttribute("points", points.map((p) => `${p.x},${p.y}`).join(" "));
      line.setAttribute("stroke-width", String(size * (rank === 1 ? 0.12 : 0.07)));
      group.append(line);
    } else {
      // A move of one square (a placement): a ring around it.
      const ring = document.createElementNS(SVG_NS, "circle");
      ring.setAttribute("class", "hint-line");
      ring.setAttribute("cx", String(points[0].x));
      ring.setAttribute("cy", String(points[0].y));
      ring.setAttribute("r", String(points[0].size * 0.45));
      ring.setAttribute("stroke-width", String(size * (rank === 1 ? 0.08 : 0.05)));
      group.append(ring);
    }
    const end = points[points.length - 1];
    const badge = document.createElementNS(SVG_NS, "g");
    badge.setAttribute("class", "hint-badge");
    const circle = document.createElementNS(SVG_NS, "circle");
    circle.setAttribute("cx", String(end.x + size * 0.28));
    circle.setAttribute("cy", String(end.y - size * 0.28));
    circle.setAttribute("r", String(size * 0.2));
    circle.setAttribute("stroke-width", String(size * 0.03));
    const label = document.createElementNS(SVG_NS, "text");
    label.setAttribute("x", String(end.x + size * 0.28));
    label.setAttribute("y", String(end.y - size * 0.28 + size * 0.09));
    label.setAttribute("text-anchor", "middle");
    label.setAttribute("font-size", String(size * 0.26));
    label.textContent = String(rank);
    badge.append(circle, label);
    group.append(badge);
  });
  svg.append(group);
  const list = document.createElement("ol");
  for (const move of hint.moves) {
    const item = document.createElement("li");
    item.dataset.move = move.move;
    const share = Math.round(move.share * 100);
    const value = Math.round(move.value * 100);
    item.textContent = `${move.move}: ${share}% of the playouts, ${value}% to win`;
    list.append(item);
  }
  const head = document.createElement("p");
  const said = `${hint.iterations} playouts, ${hint.seconds.toFixed(2)} s`;
  if (hint.moves.length === 0) {
    // A search too short to try a whole move: say so rather than show nothing.
    head.textContent = `Hint (${said}): the search ended before it tried a move.`;
    $("hints").replaceChildren(head);
    return;
  }
  head.textContent = `Hint (${said}):`;
  $("hints").replaceChildren(head, list);
}

// -- moves -------------------------------------------------------------

async function click(name) {
  const view = page.game.view;
  if (!view.clicks) {
    say(view.to_act === "bot" ? "It is the bot's turn." : "The game is over here.");
    return;
  }
  const next = page.node.next[name];
  if (next === undefined) {
    refuse(name);
    return;
  }
  page.refused = null;
  say("");
  if (typeof next === "string") {
    await play(next);
    return;
  }
  page.clicks.push(name);
  page.node = next;
  highlight();
}

async function refuse(name) {
  // Every element of the square is marked: a stone may carry its name too.
  page.refused = name;
  highlight();
  try {
    const body = { clicks: [...page.clicks, name], ply: page.game.view.ply };
    const answer = await api("POST", gamePath("/explain"), body);
    say(capital(answer.message) + ".");
  } catch (error) {
    failed(error);
  }
}

async function play(text) {
  try {
    const body = { move: text, ply: page.game.view.ply, flipped: page.flipped };
    // From now on the page follows the end: a refresh that the bot's reply
    // starts while the move is on its way must not ask for the old ply.
    page.ply = null;
    const state = await api("POST", gamePath("/moves"), body);
    say("");
    render(state);
    return true;
  } catch (error) {
    failed(error);
    return false;
  }
}

async function post(action, body = {}) {
  try {
    page.ply = null; // as in play(): the page follows the end from now on
    const state = await api("POST", gamePath(`/${action}`), { ...body, flipped: page.flipped });
    say("");
    render(state);
  } catch (error) {
    failed(error);
  }
}

// -- following the game ------------------------------------------------

async function show(ply) {
  const count = page.game.moves.length;
  if (ply !== null && (ply < 0 || ply > count)) return;
  page.ply = ply === count ? null : ply;
  await refresh();
}

async function refresh() {
  // One request at a time; a change meanwhile asks for another.
  if (page.refreshing) {
    page.stale = true;
    return page.refreshing;
  }
  page.refreshing = (async () => {
    do {
      page.stale = false;
      const query = new URLSearchParams({ flipped: String(page.flipped) });
      const asked = page.ply;
      if (asked !== null) query.set("ply", String(asked));
      try {
        const state = await api("GET", `${gamePath()}?${query}`);
        // The view moved while this was on its way: ask again rather than
        // show the ply it has left.
        if (page.ply !== asked) page.stale = true;
        else render(state);
      } catch (error) {
        failed(error);
      }
    } while (page.stale);
  })();
  try {
    await page.refreshing;
  } finally {
    page.refreshing = null;
  }
}

function follow() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${gamePath("/ws")}`);
  page.socket = socket;
  socket.addEventListener("message", (event) => {
    const summary = JSON.parse(event.data);
    if (page.game && summary.version !== page.game.version) {
      if (page.ply !== null && page.ply > summary.plies) page.ply = null;
      refresh();
    }
  });
  socket.addEventListener("close", () => {
    if (page.socket !== socket) return;
    // The server restarted or the game ended: try again a little later.
    setTimeout(() => {
      if (page.socket === socket) follow();
    }, 2000);
  });
}

// -- the New game form -------------------------------------------------

function gameInfo(name) {
  return page.info.games.find((g) => g.name === name) || page.info.games[0];
}

function fillForm(params) {
  const select = $("game");
  select.replaceChildren(...page.info.games.map((g) => new Option(g.title, g.name)));
  select.value = params.game || page.info.games[0].name;
  buildFields(params);
  $("seconds").value = params.seconds ?? "";
  $("iterations").value = params.iterations ?? "";
  $("load-text").value = "";
  $("load-file").value = "";
  $("load-note").textContent = "";
  $("new-message").textContent = "";
}

function buildFields(params) {
  const game = gameInfo($("game").value);
  $("load-text").placeholder = `${game.position_example}   or a game record`;
  const box = $("fields");
  box.replaceChildren();
  for (const field of game.fields) {
    const label = document.createElement("label");
    label.dataset.field = field.name;
    label.append(`${field.label} `);
    let input;
    if (field.type === "choice") {
      input = document.createElement("select");
      for (const choice of field.choices) input.append(new Option(choice, choice));
      input.value = params[field.name] ?? field.default;
    } else if (field.type === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.value = "true";
      input.checked = String(params[field.name] ?? field.default) === "true";
    } else {
      input = document.createElement("input");
      input.type = "number";
      input.step = "1";
      input.value = params[field.name] ?? field.default;
    }
    input.name = field.name;
    input.id = `field-${field.name}`;
    label.append(input);
    if (field.help) {
      const help = document.createElement("span");
      help.className = "help";
      help.textContent = ` ${field.help}`;
      label.append(help);
    }
    box.append(label);
    input.addEventListener("change", showFields);
  }
  const seat = $("seat");
  const labels = { watch: "neither: watch the bot play both sides" };
  seat.replaceChildren(...game.seats.map((s) => new Option(labels[s] || capital(s), s)));
  seat.value = game.seats.includes(params.seat) ? params.seat : game.seats[0];
  showFields();
}

function showFields() {
  const game = gameInfo($("game").value);
  for (const field of game.fields) {
    if (!field.only_with) continue;
    const shown = Object.entries(field.only_with).every(([name, value]) => {
      const other = $(`field-${name}`);
      return other && other.value === value;
    });
    const input = $(`field-${field.name}`);
    input.disabled = !shown;
    input.closest("label").hidden = !shown;
  }
}

function formParams() {
  const params = new URLSearchParams();
  const form = $("new-form");
  for (const element of form.elements) {
    if (!element.name || element.disabled || element.name === "load") continue;
    if (element.type === "checkbox") {
      params.set(element.name, element.checked ? "true" : "false");
    } else if (element.value !== "") {
      params.set(element.name, element.value);
    }
  }
  return params;
}

async function startNew(event) {
  event.preventDefault();
  const params = formParams();
  const text = $("load-text").value.trim();
  if (text.startsWith("[")) {
    // A record sets its own options: only the game, seat and bot go along.
    const body = { record: text };
    for (const name of ["game", "seat", "seconds", "iterations"]) {
      if (params.has(name)) body[name] = params.get(name);
    }
    try {
      const state = await api("POST", "/api/games", body);
      location.assign(`/?${new URLSearchParams(state.params)}`);
    } catch (error) {
      $("new-message").textContent = error.message;
    }
    return;
  }
  if (text) params.set("position", text);
  try {
    // Checked here, so that a mistake is shown in the form; the page that
    // opens then finds the game by its id.
    const state = await api("POST", "/api/games", Object.fromEntries(params));
    location.assign(`/?${new URLSearchParams(state.params)}`);
  } catch (error) {
    $("new-message").textContent = error.message;
  }
}

// A game of a file (records or a Parquet dataset) into the text box: the
// server reads it, since a dataset is binary.
async function loadFile() {
  const file = $("load-file").files[0];
  if (!file) return;
  const number = $("load-number").value.trim() || "1";
  const limit = page.info.limits.max_upload;
  if (file.size > limit) {
    $("new-message").textContent =
      `${file.name} is ${file.size} bytes, over this server's limit of ${limit} bytes`;
    return;
  }
  const query = new URLSearchParams({ number, name: file.name });
  let answer;
  try {
    const response = await fetch(`/api/records?${query}`, {
      method: "POST",
      headers: { "Content-Type": "application/octet-stream" },
      body: file,
    });
    answer = await response.json();
    if (!response.ok) throw new ApiError(response.status, answer.error);
  } catch (error) {
    $("new-message").textContent = error instanceof ApiError ? error.message : `${file.name} could not be sent (${error.message})`;
    return;
  }
  if ($("game").value !== answer.game) {
    const params = Object.fromEntries(formParams());
    $("game").value = answer.game;
    buildFields(params);
  }
  $("load-text").value = answer.record;
  $("new-message").textContent = "";
  $("load-note").textContent = `game ${answer.number} of ${answer.games} in ${file.name}`;
}

function openNewGame() {
  fillForm(page.game ? page.game.params : {});
  $("new-dialog").showModal();
}

// -- start -------------------------------------------------------------

function bind() {
  $("board").addEventListener("click", (event) => {
    const square = event.target.closest("[data-square]");
    if (square && page.game) click(square.dataset.square);
  });
  $("move-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("move-input");
    const text = input.value.trim();
    if (!text) return;
    if (await play(text)) input.value = "";
  });
  $("new-game").addEventListener("click", openNewGame);
  $("new-cancel").addEventListener("click", () => $("new-dialog").close());
  $("new-form").addEventListener("submit", startNew);
  $("game").addEventListener("change", () => buildFields({}));
  $("load-file").addEventListener("change", loadFile);
  $("load-number").addEventListener("change", loadFile);
  $("undo").addEventListener("click", () => post("undo"));
  $("resign").addEventListener("click", () => {
    if (confirm("Resign this game?")) post("resign");
  });
  $("continue").addEventListener("click", () => post("truncate", { ply: page.game.view.ply }));
  $("stop").addEventListener("click", async () => {
    try {
      await api("POST", gamePath("/stop"), {});
    } catch (error) {
      failed(error);
    }
  });
  $("flip").addEventListener("click", () => {
    page.flipped = !page.flipped;
    sessionStorage.setItem(`flipped-${page.game.id}`, String(page.flipped));
    refresh();
  });
  $("hint").addEventListener("click", async () => {
    const view = page.game.view;
    $("hint").disabled = true;
    say("");
    try {
      const hint = await api("POST", gamePath("/hint"), { ply: view.ply, top: 3 });
      if (page.game.view.fen === view.fen) drawHint({ ...hint, fen: view.fen });
    } catch (error) {
      failed(error);
    } finally {
      renderButtons();
    }
  });
  $("eval-on").addEventListener("change", () => {
    if ($("eval-on").checked) evaluate();
  });
  $("eval-all").addEventListener("click", evaluateAll);
  $("curve").addEventListener("click", (event) => {
    const point = event.target.closest("[data-ply]");
    if (point && page.game) show(Number(point.dataset.ply));
  });
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(page.game.view.ply - 1));
  $("next").addEventListener("click", () => show(page.game.view.ply + 1));
  $("last").addEventListener("click", () => show(null));
  document.addEventListener("keydown", (event) => {
    if (!page.game || event.target.closest("input, textarea, select, dialog")) return;
    const ply = page.game.view.ply;
    const moves = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: null };
    if (event.key in moves) {
      event.preventDefault();
      show(moves[event.key]);
    } else if (event.key === "Escape" && page.clicks.length) {
      page.clicks = [];
      page.node = page.game.view.clicks;
      page.refused = null;
      say("");
      highlight();
    }
  });
}

async function main() {
  bind();
  const params = new URLSearchParams(location.search);
  try {
    page.info = await api("GET", "/api/info");
  } catch (error) {
    failed(error);
    return;
  }
  let state = null;
  const id = params.get("id");
  if (id) {
    page.flipped = sessionStorage.getItem(`flipped-${id}`) === "true";
    try {
      state = await api("GET", `/api/games/${encodeURIComponent(id)}?flipped=${page.flipped}`);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) {
        failed(error);
        return;
      }
      say(`${capital(error.message)}. A new game with the same options has started.`, true);
    }
  }
  if (!state) {
    params.delete("id");
    try {
      state = await api("POST", "/api/games", Object.fromEntries(params));
    } catch (error) {
      failed(error);
      fillForm(Object.fromEntries(params));
      $("new-dialog").showModal();
      $("new-message").textContent = error.message;
      return;
    }
  }
  render(state);
  follow();
}

main();
