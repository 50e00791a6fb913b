#!/usr/bin/env node
// Runs the compiled entry; `npm install` builds dist/ through the prepare script.
import '../dist/src/index.js';
