// Validates a .glb or .gltf with the Khronos glTF validator and prints the
// report's issues as JSON on stdout. Usage: node validate.js FILE
// The gltf-validator package is found through NODE_PATH (the tests set it
// from $GLTF_VALIDATOR_DIR or /tmp/node_modules).
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

const file = process.argv[2];
const data = new Uint8Array(fs.readFileSync(file));
validator.validateBytes(data, {
  uri: path.basename(file),
  maxIssues: 100,
  externalResourceFunction: (uri) => new Promise((resolve, reject) => {
    fs.readFile(path.join(path.dirname(file), decodeURIComponent(uri)), (err, d) => err ? reject(err) : resolve(new Uint8Array(d)));
  }),
}).then((report) => {
  console.log(JSON.stringify(report.issues));
}).catch((err) => {
  console.error(String(err));
  process.exit(2);
});
