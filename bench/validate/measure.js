#!/usr/bin/env node
// measure.js - measures the real single-thread latency of an ONNX model with ONNX Runtime (onnxruntime-node, CPU
// execution provider) on this host, to validate nnperf's predictions.
//
// usage: node measure.js MODEL.onnx OUT_PROFILE.json [--runs N] [--warmup N] [--profile-runs N]
//
// 1. A session with intraOpNumThreads=1, interOpNumThreads=1, executionMode 'sequential', graphOptimizationLevel
//    'all'; random inputs of the model's declared shapes and dtypes (symbolic dims = 1); --warmup runs (default 5),
//    then --runs timed runs (default 30, at least 20) timed with process.hrtime.bigint() around session.run().
//    The median/min/max/mean (ms) are printed and written to OUT_PROFILE.json.timing.json.
// 2. A second session with the same options plus enableProfiling: true, --profile-runs runs (default 3, after one
//    warm-up run, which is in the profile too: its events are part of the file); the ORT profile (a JSON array of
//    trace events: "cat":"Node" events with args.op_name, args.provider and dur in microseconds, and one
//    "model_run" event per run) is moved to OUT_PROFILE.json.
//
// The timed runs include the small cost of the JS binding (input/output tensor wrapping, one setImmediate hop),
// a few microseconds per run; the model_run events in the profile are ORT's own time.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const ort = require('onnxruntime-node');

const USAGE = 'usage: node measure.js MODEL.onnx OUT_PROFILE.json [--runs N (>= 20, default 30)] [--warmup N (default 5)]' +
    ' [--profile-runs N (default 3)]';

function die(msg) {
    process.stderr.write(`measure.js: ${msg}\n`);
    process.exit(2);
}

function parseArgs(argv) {
    const a = {runs: 30, warmup: 5, profileRuns: 3, files: []};
    for (let i = 0; i < argv.length; i++) {
        const s = argv[i];
        const num = (name) => {
            if (i + 1 >= argv.length) die(`${name} needs a value\n${USAGE}`);
            const v = Number(argv[++i]);
            if (!Number.isInteger(v) || v < 0) die(`${name}: '${argv[i]}' is not a non-negative integer`);
            return v;
        };
        if (s === '--runs') a.runs = num(s);
        else if (s === '--warmup') a.warmup = num(s);
        else if (s === '--profile-runs') a.profileRuns = num(s);
        else if (s === '-h' || s === '--help') {
            process.stdout.write(USAGE + '\n');
            process.exit(0);
        } else if (s.startsWith('-')) die(`unknown option '${s}'\n${USAGE}`);
        else a.files.push(s);
    }
    if (a.files.length !== 2) die(USAGE);
    if (a.runs < 20) die(`--runs ${a.runs}: at least 20 timed runs are needed for a stable median`);
    if (a.profileRuns < 1) die('--profile-runs must be at least 1');
    return a;
}

function sessionOptions(profilePrefix) {
    const o = {
        executionProviders: ['cpu'],
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
    };
    if (profilePrefix) {
        o.enableProfiling = true;
        o.profileFilePrefix = profilePrefix;
    }
    return o;
}

// Deterministic pseudo-random numbers (mulberry32) so that runs are repeatable.
function rng(seed) {
    let s = seed >>> 0;
    return () => {
        s = (s + 0x6d2b79f5) >>> 0;
        let t = s;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

function randomTensor(meta, rand) {
    if (!meta.isTensor) die(`input '${meta.name}' is not a tensor`);
    const dims = meta.shape.map((d) => (typeof d === 'number' ? d : 1));
    const n = dims.reduce((x, y) => x * y, 1);
    let data;
    switch (meta.type) {
    case 'float32': data = Float32Array.from({length: n}, () => rand() * 2 - 1); break;
    case 'float64': data = Float64Array.from({length: n}, () => rand() * 2 - 1); break;
    case 'int8': data = Int8Array.from({length: n}, () => Math.floor(rand() * 256) - 128); break;
    case 'uint8': data = Uint8Array.from({length: n}, () => Math.floor(rand() * 256)); break;
    case 'int16': data = Int16Array.from({length: n}, () => Math.floor(rand() * 200) - 100); break;
    case 'uint16': data = Uint16Array.from({length: n}, () => Math.floor(rand() * 200)); break;
    case 'int32': data = Int32Array.from({length: n}, () => Math.floor(rand() * 10)); break;
    case 'uint32': data = Uint32Array.from({length: n}, () => Math.floor(rand() * 10)); break;
    // small non-negative integers: a plausible index or token id for any embedding/gather input
    case 'int64': data = BigInt64Array.from({length: n}, () => BigInt(Math.floor(rand() * 10))); break;
    case 'uint64': data = BigUint64Array.from({length: n}, () => BigInt(Math.floor(rand() * 10))); break;
    case 'bool': data = Uint8Array.from({length: n}, () => (rand() < 0.5 ? 1 : 0)); break;
    default: die(`input '${meta.name}': dtype '${meta.type}' is not supported by measure.js`);
    }
    return new ort.Tensor(meta.type, data, dims);
}

function makeFeeds(session) {
    const rand = rng(12345);
    const feeds = {};
    for (const meta of session.inputMetadata) feeds[meta.name] = randomTensor(meta, rand);
    return feeds;
}

function stats(ms) {
    const s = [...ms].sort((x, y) => x - y);
    const mid = s.length >> 1;
    const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
    const mean = s.reduce((x, y) => x + y, 0) / s.length;
    return {median_ms: median, min_ms: s[0], max_ms: s[s.length - 1], mean_ms: mean};
}

async function main() {
    const args = parseArgs(process.argv.slice(2));
    const [model, outProfile] = args.files;
    if (!fs.existsSync(model)) die(`cannot open '${model}'`);
    const dir = path.dirname(path.resolve(outProfile));
    fs.mkdirSync(dir, {recursive: true});

    // 1. timed runs, profiling off
    let session;
    try {
        session = await ort.InferenceSession.create(model, sessionOptions(null));
    } catch (e) {
        die(`'${model}': cannot create a session: ${e.message}`);
    }
    const feeds = makeFeeds(session);
    for (let i = 0; i < args.warmup; i++) await session.run(feeds);
    const times = [];
    for (let i = 0; i < args.runs; i++) {
        const t0 = process.hrtime.bigint();
        await session.run(feeds);
        const t1 = process.hrtime.bigint();
        times.push(Number(t1 - t0) / 1e6);
    }
    await session.release();
    const st = stats(times);
    const timing = {
        model: path.basename(model, '.onnx'),
        model_path: model,
        ort_version: ort.env.versions.node || ort.env.versions.common,
        execution_provider: 'cpu',
        intra_op_threads: 1,
        inter_op_threads: 1,
        execution_mode: 'sequential',
        graph_optimization_level: 'all',
        inputs: session.inputMetadata.map((m) => ({name: m.name, type: m.type, shape: m.shape})),
        warmup: args.warmup,
        runs: args.runs,
        ...st,
        times_ms: times,
        cpu: os.cpus()[0] ? os.cpus()[0].model : 'unknown',
        date: new Date().toISOString(),
    };
    fs.writeFileSync(outProfile + '.timing.json', JSON.stringify(timing, null, 1) + '\n');
    console.log(`${timing.model}: median ${st.median_ms.toFixed(3)} ms, min ${st.min_ms.toFixed(3)} ms, ` +
                `max ${st.max_ms.toFixed(3)} ms over ${args.runs} runs (1 thread, ORT ${timing.ort_version})`);

    // 2. profiled runs in a fresh session
    const prefix = path.join(dir, `.ortprof_${process.pid}`);
    let ps;
    try {
        ps = await ort.InferenceSession.create(model, sessionOptions(prefix));
    } catch (e) {
        die(`'${model}': cannot create the profiling session: ${e.message}`);
    }
    await ps.run(feeds); // warm-up: first-run allocations
    for (let i = 0; i < args.profileRuns; i++) await ps.run(feeds);
    ps.endProfiling();
    await ps.release();
    const base = path.basename(prefix);
    const found = fs.readdirSync(dir).filter((f) => f.startsWith(base) && f.endsWith('.json'));
    if (found.length !== 1) die(`expected one ORT profile '${prefix}*.json', found ${found.length}`);
    fs.renameSync(path.join(dir, found[0]), outProfile);
    console.log(`profile (${args.profileRuns + 1} runs, the first a warm-up) written to ${outProfile}`);
}

main().catch((e) => die(e.stack || String(e)));
