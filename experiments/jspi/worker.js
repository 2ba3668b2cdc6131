import { probe } from "./probe.js";
probe((s) => postMessage(s)).catch((e) => postMessage(`worker probe threw: ${e}`));
