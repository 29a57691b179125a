// Generated from lib/state/schemas.ts by scripts/gen-validators.ts (make docs): do not edit. A test fails when it is stale.
// @ts-nocheck
import type { StateFile } from './read';

export const validate_planPointer = validate10;
const schema11 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"plan_id":{"type":"string","pattern":"^(?!\\.\\.?$)[\\w.-]{1,128}$"}},"required":["plan_id"],"additionalProperties":{},"$id":"planPointer"};
const pattern0 = /* @__PURE__ */ new RegExp("^(?!\\.\\.?$)[\\w.-]{1,128}$", "u");

function validate10(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="planPointer" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((data.plan_id === undefined) && (missing0 = "plan_id")){
validate10.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.plan_id !== undefined){
let data0 = data.plan_id;
const _errs2 = errors;
if(errors === _errs2){
if(typeof data0 === "string"){
if(!pattern0.test(data0)){
validate10.errors = [{instancePath:instancePath+"/plan_id",schemaPath:"#/properties/plan_id/pattern",keyword:"pattern",params:{pattern: "^(?!\\.\\.?$)[\\w.-]{1,128}$"},message:"must match pattern \""+"^(?!\\.\\.?$)[\\w.-]{1,128}$"+"\""}];
return false;
}
}
else {
validate10.errors = [{instancePath:instancePath+"/plan_id",schemaPath:"#/properties/plan_id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
}
}
}
else {
validate10.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate10.errors = vErrors;
return errors === 0;
}

export const validate_contract = validate11;
const schema12 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"plan_id":{"type":"string","pattern":"^(?!\\.\\.?$)[\\w.-]{1,128}$"},"source":{"type":"string"},"envelope":{"type":"object","properties":{"plan_id":{"type":"string","pattern":"^(?!\\.\\.?$)[\\w.-]{1,128}$"},"plan_contract_version":{"type":"number"},"parent_rails":{"type":"object","properties":{"allowed_tools":{"type":"array","items":{"type":"string"}},"allowed_paths":{"type":"array","items":{"type":"string"}},"surface":{"type":"string","enum":["artifacts_only","local_branch","remote_branch_pr"]}},"required":["allowed_tools","allowed_paths","surface"],"additionalProperties":{}},"parent_blast_radius":{"type":"object","properties":{"path_globs":{"type":"array","items":{"type":"string"}},"budget_caps":{"type":"object","properties":{"files_changed":{"type":"number"},"runs":{"type":"number"},"wall_time":{"type":["number","string"]},"tokens":{"type":"number"}},"additionalProperties":{}}},"required":["path_globs"],"additionalProperties":{}},"requirements":{"type":"array","items":{"type":"string"}}},"required":["plan_id","plan_contract_version","parent_rails","parent_blast_radius"],"additionalProperties":{}},"units":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"title":{"type":"string"},"line":{"type":"number"},"allowed_tools":{"type":"array","items":{"type":"string"}},"allowed_paths":{"type":"array","items":{"type":"string"}},"surface":{"type":"string","enum":["artifacts_only","local_branch","remote_branch_pr"]},"context_tokens_expected":{"type":"number"},"verification":{"type":"object","properties":{"kind":{"type":"string","const":"command"},"command":{"type":"string"}},"required":["kind","command"],"additionalProperties":{}},"requirements":{"type":"array","items":{"type":"string"}},"advance_evidence_required":{"type":"object","properties":{"verification_pass":{"type":"boolean"}},"additionalProperties":{}}},"required":["id","title","line","allowed_tools","allowed_paths"],"additionalProperties":{}}},"current":{"type":"integer","minimum":0,"maximum":9007199254740991},"status":{"type":"string","enum":["active","paused","complete","ended"]},"pausedReason":{"type":["string","null"]},"activatedAt":{"type":"string"},"updatedAt":{"type":"string"},"used":{"type":"object","properties":{"runs":{"type":"array","items":{"type":"string"}},"tokens":{"type":"number"},"files":{"type":"array","items":{"type":"string"}},"unitTokens":{"default":0,"type":"number"}},"required":["runs","tokens","files"],"additionalProperties":{}},"pendingBreach":{"anyOf":[{"type":"object","properties":{"unit":{"type":"string"},"tool":{"type":"string"},"agent":{"type":"string","enum":["claude","codex","gemini","opencode","forge"]},"paths":{"type":"array","items":{"type":"string"}},"breach":{"type":"string"},"reason":{"type":"string"}},"required":["unit","tool","paths","breach","reason"],"additionalProperties":{}},{"type":"null"}]},"grant":{"anyOf":[{"type":"object","properties":{"unit":{"type":"string"},"tool":{"type":"string"},"agent":{"type":"string","enum":["claude","codex","gemini","opencode","forge"]},"paths":{"type":"array","items":{"type":"string"}},"breach":{"type":"string"},"reason":{"type":"string"}},"required":["unit","tool","paths","breach","reason"],"additionalProperties":{}},{"type":"null"}]}},"required":["plan_id","source","envelope","units","current","status","pausedReason","activatedAt","updatedAt","used","pendingBreach","grant"],"additionalProperties":{},"$id":"contract"};

function validate11(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="contract" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if(((((((((((((data.plan_id === undefined) && (missing0 = "plan_id")) || ((data.source === undefined) && (missing0 = "source"))) || ((data.envelope === undefined) && (missing0 = "envelope"))) || ((data.units === undefined) && (missing0 = "units"))) || ((data.current === undefined) && (missing0 = "current"))) || ((data.status === undefined) && (missing0 = "status"))) || ((data.pausedReason === undefined) && (missing0 = "pausedReason"))) || ((data.activatedAt === undefined) && (missing0 = "activatedAt"))) || ((data.updatedAt === undefined) && (missing0 = "updatedAt"))) || ((data.used === undefined) && (missing0 = "used"))) || ((data.pendingBreach === undefined) && (missing0 = "pendingBreach"))) || ((data.grant === undefined) && (missing0 = "grant"))){
validate11.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.plan_id !== undefined){
let data0 = data.plan_id;
const _errs2 = errors;
if(errors === _errs2){
if(typeof data0 === "string"){
if(!pattern0.test(data0)){
validate11.errors = [{instancePath:instancePath+"/plan_id",schemaPath:"#/properties/plan_id/pattern",keyword:"pattern",params:{pattern: "^(?!\\.\\.?$)[\\w.-]{1,128}$"},message:"must match pattern \""+"^(?!\\.\\.?$)[\\w.-]{1,128}$"+"\""}];
return false;
}
}
else {
validate11.errors = [{instancePath:instancePath+"/plan_id",schemaPath:"#/properties/plan_id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.source !== undefined){
const _errs4 = errors;
if(typeof data.source !== "string"){
validate11.errors = [{instancePath:instancePath+"/source",schemaPath:"#/properties/source/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.envelope !== undefined){
let data2 = data.envelope;
const _errs6 = errors;
if(errors === _errs6){
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
let missing1;
if(((((data2.plan_id === undefined) && (missing1 = "plan_id")) || ((data2.plan_contract_version === undefined) && (missing1 = "plan_contract_version"))) || ((data2.parent_rails === undefined) && (missing1 = "parent_rails"))) || ((data2.parent_blast_radius === undefined) && (missing1 = "parent_blast_radius"))){
validate11.errors = [{instancePath:instancePath+"/envelope",schemaPath:"#/properties/envelope/required",keyword:"required",params:{missingProperty: missing1},message:"must have required property '"+missing1+"'"}];
return false;
}
else {
if(data2.plan_id !== undefined){
let data3 = data2.plan_id;
const _errs9 = errors;
if(errors === _errs9){
if(typeof data3 === "string"){
if(!pattern0.test(data3)){
validate11.errors = [{instancePath:instancePath+"/envelope/plan_id",schemaPath:"#/properties/envelope/properties/plan_id/pattern",keyword:"pattern",params:{pattern: "^(?!\\.\\.?$)[\\w.-]{1,128}$"},message:"must match pattern \""+"^(?!\\.\\.?$)[\\w.-]{1,128}$"+"\""}];
return false;
}
}
else {
validate11.errors = [{instancePath:instancePath+"/envelope/plan_id",schemaPath:"#/properties/envelope/properties/plan_id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid1 = _errs9 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data2.plan_contract_version !== undefined){
let data4 = data2.plan_contract_version;
const _errs11 = errors;
if(!((typeof data4 == "number") && (isFinite(data4)))){
validate11.errors = [{instancePath:instancePath+"/envelope/plan_contract_version",schemaPath:"#/properties/envelope/properties/plan_contract_version/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid1 = _errs11 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data2.parent_rails !== undefined){
let data5 = data2.parent_rails;
const _errs13 = errors;
if(errors === _errs13){
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
let missing2;
if((((data5.allowed_tools === undefined) && (missing2 = "allowed_tools")) || ((data5.allowed_paths === undefined) && (missing2 = "allowed_paths"))) || ((data5.surface === undefined) && (missing2 = "surface"))){
validate11.errors = [{instancePath:instancePath+"/envelope/parent_rails",schemaPath:"#/properties/envelope/properties/parent_rails/required",keyword:"required",params:{missingProperty: missing2},message:"must have required property '"+missing2+"'"}];
return false;
}
else {
if(data5.allowed_tools !== undefined){
let data6 = data5.allowed_tools;
const _errs16 = errors;
if(errors === _errs16){
if(Array.isArray(data6)){
var valid3 = true;
const len0 = data6.length;
for(let i0=0; i0<len0; i0++){
const _errs18 = errors;
if(typeof data6[i0] !== "string"){
validate11.errors = [{instancePath:instancePath+"/envelope/parent_rails/allowed_tools/" + i0,schemaPath:"#/properties/envelope/properties/parent_rails/properties/allowed_tools/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid3 = _errs18 === errors;
if(!valid3){
break;
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/envelope/parent_rails/allowed_tools",schemaPath:"#/properties/envelope/properties/parent_rails/properties/allowed_tools/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid2 = _errs16 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data5.allowed_paths !== undefined){
let data8 = data5.allowed_paths;
const _errs20 = errors;
if(errors === _errs20){
if(Array.isArray(data8)){
var valid4 = true;
const len1 = data8.length;
for(let i1=0; i1<len1; i1++){
const _errs22 = errors;
if(typeof data8[i1] !== "string"){
validate11.errors = [{instancePath:instancePath+"/envelope/parent_rails/allowed_paths/" + i1,schemaPath:"#/properties/envelope/properties/parent_rails/properties/allowed_paths/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid4 = _errs22 === errors;
if(!valid4){
break;
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/envelope/parent_rails/allowed_paths",schemaPath:"#/properties/envelope/properties/parent_rails/properties/allowed_paths/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid2 = _errs20 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data5.surface !== undefined){
let data10 = data5.surface;
const _errs24 = errors;
if(typeof data10 !== "string"){
validate11.errors = [{instancePath:instancePath+"/envelope/parent_rails/surface",schemaPath:"#/properties/envelope/properties/parent_rails/properties/surface/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((data10 === "artifacts_only") || (data10 === "local_branch")) || (data10 === "remote_branch_pr"))){
validate11.errors = [{instancePath:instancePath+"/envelope/parent_rails/surface",schemaPath:"#/properties/envelope/properties/parent_rails/properties/surface/enum",keyword:"enum",params:{allowedValues: schema12.properties.envelope.properties.parent_rails.properties.surface.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid2 = _errs24 === errors;
}
else {
var valid2 = true;
}
}
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/envelope/parent_rails",schemaPath:"#/properties/envelope/properties/parent_rails/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid1 = _errs13 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data2.parent_blast_radius !== undefined){
let data11 = data2.parent_blast_radius;
const _errs26 = errors;
if(errors === _errs26){
if(data11 && typeof data11 == "object" && !Array.isArray(data11)){
let missing3;
if((data11.path_globs === undefined) && (missing3 = "path_globs")){
validate11.errors = [{instancePath:instancePath+"/envelope/parent_blast_radius",schemaPath:"#/properties/envelope/properties/parent_blast_radius/required",keyword:"required",params:{missingProperty: missing3},message:"must have required property '"+missing3+"'"}];
return false;
}
else {
if(data11.path_globs !== undefined){
let data12 = data11.path_globs;
const _errs29 = errors;
if(errors === _errs29){
if(Array.isArray(data12)){
var valid6 = true;
const len2 = data12.length;
for(let i2=0; i2<len2; i2++){
const _errs31 = errors;
if(typeof data12[i2] !== "string"){
validate11.errors = [{instancePath:instancePath+"/envelope/parent_blast_radius/path_globs/" + i2,schemaPath:"#/properties/envelope/properties/parent_blast_radius/properties/path_globs/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid6 = _errs31 === errors;
if(!valid6){
break;
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/envelope/parent_blast_radius/path_globs",schemaPath:"#/properties/envelope/properties/parent_blast_radius/properties/path_globs/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid5 = _errs29 === errors;
}
else {
var valid5 = true;
}
if(valid5){
if(data11.budget_caps !== undefined){
let data14 = data11.budget_caps;
const _errs33 = errors;
if(errors === _errs33){
if(data14 && typeof data14 == "object" && !Array.isArray(data14)){
if(data14.files_changed !== undefined){
let data15 = data14.files_changed;
const _errs36 = errors;
if(!((typeof data15 == "number") && (isFinite(data15)))){
validate11.errors = [{instancePath:instancePath+"/envelope/parent_blast_radius/budget_caps/files_changed",schemaPath:"#/properties/envelope/properties/parent_blast_radius/properties/budget_caps/properties/files_changed/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid7 = _errs36 === errors;
}
else {
var valid7 = true;
}
if(valid7){
if(data14.runs !== undefined){
let data16 = data14.runs;
const _errs38 = errors;
if(!((typeof data16 == "number") && (isFinite(data16)))){
validate11.errors = [{instancePath:instancePath+"/envelope/parent_blast_radius/budget_caps/runs",schemaPath:"#/properties/envelope/properties/parent_blast_radius/properties/budget_caps/properties/runs/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid7 = _errs38 === errors;
}
else {
var valid7 = true;
}
if(valid7){
if(data14.wall_time !== undefined){
let data17 = data14.wall_time;
const _errs40 = errors;
if((!((typeof data17 == "number") && (isFinite(data17)))) && (typeof data17 !== "string")){
validate11.errors = [{instancePath:instancePath+"/envelope/parent_blast_radius/budget_caps/wall_time",schemaPath:"#/properties/envelope/properties/parent_blast_radius/properties/budget_caps/properties/wall_time/type",keyword:"type",params:{type: schema12.properties.envelope.properties.parent_blast_radius.properties.budget_caps.properties.wall_time.type},message:"must be number,string"}];
return false;
}
var valid7 = _errs40 === errors;
}
else {
var valid7 = true;
}
if(valid7){
if(data14.tokens !== undefined){
let data18 = data14.tokens;
const _errs42 = errors;
if(!((typeof data18 == "number") && (isFinite(data18)))){
validate11.errors = [{instancePath:instancePath+"/envelope/parent_blast_radius/budget_caps/tokens",schemaPath:"#/properties/envelope/properties/parent_blast_radius/properties/budget_caps/properties/tokens/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid7 = _errs42 === errors;
}
else {
var valid7 = true;
}
}
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/envelope/parent_blast_radius/budget_caps",schemaPath:"#/properties/envelope/properties/parent_blast_radius/properties/budget_caps/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid5 = _errs33 === errors;
}
else {
var valid5 = true;
}
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/envelope/parent_blast_radius",schemaPath:"#/properties/envelope/properties/parent_blast_radius/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid1 = _errs26 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data2.requirements !== undefined){
let data19 = data2.requirements;
const _errs44 = errors;
if(errors === _errs44){
if(Array.isArray(data19)){
var valid8 = true;
const len3 = data19.length;
for(let i3=0; i3<len3; i3++){
const _errs46 = errors;
if(typeof data19[i3] !== "string"){
validate11.errors = [{instancePath:instancePath+"/envelope/requirements/" + i3,schemaPath:"#/properties/envelope/properties/requirements/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid8 = _errs46 === errors;
if(!valid8){
break;
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/envelope/requirements",schemaPath:"#/properties/envelope/properties/requirements/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid1 = _errs44 === errors;
}
else {
var valid1 = true;
}
}
}
}
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/envelope",schemaPath:"#/properties/envelope/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.units !== undefined){
let data21 = data.units;
const _errs48 = errors;
if(errors === _errs48){
if(Array.isArray(data21)){
var valid9 = true;
const len4 = data21.length;
for(let i4=0; i4<len4; i4++){
let data22 = data21[i4];
const _errs50 = errors;
if(errors === _errs50){
if(data22 && typeof data22 == "object" && !Array.isArray(data22)){
let missing4;
if((((((data22.id === undefined) && (missing4 = "id")) || ((data22.title === undefined) && (missing4 = "title"))) || ((data22.line === undefined) && (missing4 = "line"))) || ((data22.allowed_tools === undefined) && (missing4 = "allowed_tools"))) || ((data22.allowed_paths === undefined) && (missing4 = "allowed_paths"))){
validate11.errors = [{instancePath:instancePath+"/units/" + i4,schemaPath:"#/properties/units/items/required",keyword:"required",params:{missingProperty: missing4},message:"must have required property '"+missing4+"'"}];
return false;
}
else {
if(data22.id !== undefined){
const _errs53 = errors;
if(typeof data22.id !== "string"){
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/id",schemaPath:"#/properties/units/items/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid10 = _errs53 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data22.title !== undefined){
const _errs55 = errors;
if(typeof data22.title !== "string"){
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/title",schemaPath:"#/properties/units/items/properties/title/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid10 = _errs55 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data22.line !== undefined){
let data25 = data22.line;
const _errs57 = errors;
if(!((typeof data25 == "number") && (isFinite(data25)))){
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/line",schemaPath:"#/properties/units/items/properties/line/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid10 = _errs57 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data22.allowed_tools !== undefined){
let data26 = data22.allowed_tools;
const _errs59 = errors;
if(errors === _errs59){
if(Array.isArray(data26)){
var valid11 = true;
const len5 = data26.length;
for(let i5=0; i5<len5; i5++){
const _errs61 = errors;
if(typeof data26[i5] !== "string"){
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/allowed_tools/" + i5,schemaPath:"#/properties/units/items/properties/allowed_tools/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid11 = _errs61 === errors;
if(!valid11){
break;
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/allowed_tools",schemaPath:"#/properties/units/items/properties/allowed_tools/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid10 = _errs59 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data22.allowed_paths !== undefined){
let data28 = data22.allowed_paths;
const _errs63 = errors;
if(errors === _errs63){
if(Array.isArray(data28)){
var valid12 = true;
const len6 = data28.length;
for(let i6=0; i6<len6; i6++){
const _errs65 = errors;
if(typeof data28[i6] !== "string"){
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/allowed_paths/" + i6,schemaPath:"#/properties/units/items/properties/allowed_paths/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid12 = _errs65 === errors;
if(!valid12){
break;
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/allowed_paths",schemaPath:"#/properties/units/items/properties/allowed_paths/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid10 = _errs63 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data22.surface !== undefined){
let data30 = data22.surface;
const _errs67 = errors;
if(typeof data30 !== "string"){
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/surface",schemaPath:"#/properties/units/items/properties/surface/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((data30 === "artifacts_only") || (data30 === "local_branch")) || (data30 === "remote_branch_pr"))){
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/surface",schemaPath:"#/properties/units/items/properties/surface/enum",keyword:"enum",params:{allowedValues: schema12.properties.units.items.properties.surface.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid10 = _errs67 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data22.context_tokens_expected !== undefined){
let data31 = data22.context_tokens_expected;
const _errs69 = errors;
if(!((typeof data31 == "number") && (isFinite(data31)))){
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/context_tokens_expected",schemaPath:"#/properties/units/items/properties/context_tokens_expected/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid10 = _errs69 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data22.verification !== undefined){
let data32 = data22.verification;
const _errs71 = errors;
if(errors === _errs71){
if(data32 && typeof data32 == "object" && !Array.isArray(data32)){
let missing5;
if(((data32.kind === undefined) && (missing5 = "kind")) || ((data32.command === undefined) && (missing5 = "command"))){
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/verification",schemaPath:"#/properties/units/items/properties/verification/required",keyword:"required",params:{missingProperty: missing5},message:"must have required property '"+missing5+"'"}];
return false;
}
else {
if(data32.kind !== undefined){
let data33 = data32.kind;
const _errs74 = errors;
if(typeof data33 !== "string"){
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/verification/kind",schemaPath:"#/properties/units/items/properties/verification/properties/kind/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if("command" !== data33){
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/verification/kind",schemaPath:"#/properties/units/items/properties/verification/properties/kind/const",keyword:"const",params:{allowedValue: "command"},message:"must be equal to constant"}];
return false;
}
var valid13 = _errs74 === errors;
}
else {
var valid13 = true;
}
if(valid13){
if(data32.command !== undefined){
const _errs76 = errors;
if(typeof data32.command !== "string"){
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/verification/command",schemaPath:"#/properties/units/items/properties/verification/properties/command/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid13 = _errs76 === errors;
}
else {
var valid13 = true;
}
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/verification",schemaPath:"#/properties/units/items/properties/verification/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid10 = _errs71 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data22.requirements !== undefined){
let data35 = data22.requirements;
const _errs78 = errors;
if(errors === _errs78){
if(Array.isArray(data35)){
var valid14 = true;
const len7 = data35.length;
for(let i7=0; i7<len7; i7++){
const _errs80 = errors;
if(typeof data35[i7] !== "string"){
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/requirements/" + i7,schemaPath:"#/properties/units/items/properties/requirements/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid14 = _errs80 === errors;
if(!valid14){
break;
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/requirements",schemaPath:"#/properties/units/items/properties/requirements/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid10 = _errs78 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data22.advance_evidence_required !== undefined){
let data37 = data22.advance_evidence_required;
const _errs82 = errors;
if(errors === _errs82){
if(data37 && typeof data37 == "object" && !Array.isArray(data37)){
if(data37.verification_pass !== undefined){
if(typeof data37.verification_pass !== "boolean"){
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/advance_evidence_required/verification_pass",schemaPath:"#/properties/units/items/properties/advance_evidence_required/properties/verification_pass/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/units/" + i4+"/advance_evidence_required",schemaPath:"#/properties/units/items/properties/advance_evidence_required/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid10 = _errs82 === errors;
}
else {
var valid10 = true;
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/units/" + i4,schemaPath:"#/properties/units/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid9 = _errs50 === errors;
if(!valid9){
break;
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/units",schemaPath:"#/properties/units/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs48 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.current !== undefined){
let data39 = data.current;
const _errs87 = errors;
if(!(((typeof data39 == "number") && (!(data39 % 1) && !isNaN(data39))) && (isFinite(data39)))){
validate11.errors = [{instancePath:instancePath+"/current",schemaPath:"#/properties/current/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs87){
if((typeof data39 == "number") && (isFinite(data39))){
if(data39 > 9007199254740991 || isNaN(data39)){
validate11.errors = [{instancePath:instancePath+"/current",schemaPath:"#/properties/current/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"}];
return false;
}
else {
if(data39 < 0 || isNaN(data39)){
validate11.errors = [{instancePath:instancePath+"/current",schemaPath:"#/properties/current/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
}
var valid0 = _errs87 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.status !== undefined){
let data40 = data.status;
const _errs89 = errors;
if(typeof data40 !== "string"){
validate11.errors = [{instancePath:instancePath+"/status",schemaPath:"#/properties/status/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!((((data40 === "active") || (data40 === "paused")) || (data40 === "complete")) || (data40 === "ended"))){
validate11.errors = [{instancePath:instancePath+"/status",schemaPath:"#/properties/status/enum",keyword:"enum",params:{allowedValues: schema12.properties.status.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs89 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.pausedReason !== undefined){
let data41 = data.pausedReason;
const _errs91 = errors;
if((typeof data41 !== "string") && (data41 !== null)){
validate11.errors = [{instancePath:instancePath+"/pausedReason",schemaPath:"#/properties/pausedReason/type",keyword:"type",params:{type: schema12.properties.pausedReason.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs91 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.activatedAt !== undefined){
const _errs93 = errors;
if(typeof data.activatedAt !== "string"){
validate11.errors = [{instancePath:instancePath+"/activatedAt",schemaPath:"#/properties/activatedAt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs93 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.updatedAt !== undefined){
const _errs95 = errors;
if(typeof data.updatedAt !== "string"){
validate11.errors = [{instancePath:instancePath+"/updatedAt",schemaPath:"#/properties/updatedAt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs95 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.used !== undefined){
let data44 = data.used;
const _errs97 = errors;
if(errors === _errs97){
if(data44 && typeof data44 == "object" && !Array.isArray(data44)){
if(data44.unitTokens === undefined){
data44.unitTokens = 0;
}
let missing6;
if((((data44.runs === undefined) && (missing6 = "runs")) || ((data44.tokens === undefined) && (missing6 = "tokens"))) || ((data44.files === undefined) && (missing6 = "files"))){
validate11.errors = [{instancePath:instancePath+"/used",schemaPath:"#/properties/used/required",keyword:"required",params:{missingProperty: missing6},message:"must have required property '"+missing6+"'"}];
return false;
}
else {
if(data44.runs !== undefined){
let data45 = data44.runs;
const _errs100 = errors;
if(errors === _errs100){
if(Array.isArray(data45)){
var valid17 = true;
const len8 = data45.length;
for(let i8=0; i8<len8; i8++){
const _errs102 = errors;
if(typeof data45[i8] !== "string"){
validate11.errors = [{instancePath:instancePath+"/used/runs/" + i8,schemaPath:"#/properties/used/properties/runs/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid17 = _errs102 === errors;
if(!valid17){
break;
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/used/runs",schemaPath:"#/properties/used/properties/runs/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid16 = _errs100 === errors;
}
else {
var valid16 = true;
}
if(valid16){
if(data44.tokens !== undefined){
let data47 = data44.tokens;
const _errs104 = errors;
if(!((typeof data47 == "number") && (isFinite(data47)))){
validate11.errors = [{instancePath:instancePath+"/used/tokens",schemaPath:"#/properties/used/properties/tokens/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid16 = _errs104 === errors;
}
else {
var valid16 = true;
}
if(valid16){
if(data44.files !== undefined){
let data48 = data44.files;
const _errs106 = errors;
if(errors === _errs106){
if(Array.isArray(data48)){
var valid18 = true;
const len9 = data48.length;
for(let i9=0; i9<len9; i9++){
const _errs108 = errors;
if(typeof data48[i9] !== "string"){
validate11.errors = [{instancePath:instancePath+"/used/files/" + i9,schemaPath:"#/properties/used/properties/files/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid18 = _errs108 === errors;
if(!valid18){
break;
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/used/files",schemaPath:"#/properties/used/properties/files/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid16 = _errs106 === errors;
}
else {
var valid16 = true;
}
if(valid16){
let data50 = data44.unitTokens;
const _errs110 = errors;
if(!((typeof data50 == "number") && (isFinite(data50)))){
validate11.errors = [{instancePath:instancePath+"/used/unitTokens",schemaPath:"#/properties/used/properties/unitTokens/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid16 = _errs110 === errors;
}
}
}
}
}
else {
validate11.errors = [{instancePath:instancePath+"/used",schemaPath:"#/properties/used/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs97 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.pendingBreach !== undefined){
let data51 = data.pendingBreach;
const _errs112 = errors;
const _errs113 = errors;
let valid19 = false;
const _errs114 = errors;
if(errors === _errs114){
if(data51 && typeof data51 == "object" && !Array.isArray(data51)){
let missing7;
if((((((data51.unit === undefined) && (missing7 = "unit")) || ((data51.tool === undefined) && (missing7 = "tool"))) || ((data51.paths === undefined) && (missing7 = "paths"))) || ((data51.breach === undefined) && (missing7 = "breach"))) || ((data51.reason === undefined) && (missing7 = "reason"))){
const err0 = {instancePath:instancePath+"/pendingBreach",schemaPath:"#/properties/pendingBreach/anyOf/0/required",keyword:"required",params:{missingProperty: missing7},message:"must have required property '"+missing7+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
else {
if(data51.unit !== undefined){
const _errs117 = errors;
if(typeof data51.unit !== "string"){
const err1 = {instancePath:instancePath+"/pendingBreach/unit",schemaPath:"#/properties/pendingBreach/anyOf/0/properties/unit/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
var valid20 = _errs117 === errors;
}
else {
var valid20 = true;
}
if(valid20){
if(data51.tool !== undefined){
const _errs119 = errors;
if(typeof data51.tool !== "string"){
const err2 = {instancePath:instancePath+"/pendingBreach/tool",schemaPath:"#/properties/pendingBreach/anyOf/0/properties/tool/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
var valid20 = _errs119 === errors;
}
else {
var valid20 = true;
}
if(valid20){
if(data51.agent !== undefined){
let data54 = data51.agent;
const _errs121 = errors;
if(typeof data54 !== "string"){
const err3 = {instancePath:instancePath+"/pendingBreach/agent",schemaPath:"#/properties/pendingBreach/anyOf/0/properties/agent/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(!(((((data54 === "claude") || (data54 === "codex")) || (data54 === "gemini")) || (data54 === "opencode")) || (data54 === "forge"))){
const err4 = {instancePath:instancePath+"/pendingBreach/agent",schemaPath:"#/properties/pendingBreach/anyOf/0/properties/agent/enum",keyword:"enum",params:{allowedValues: schema12.properties.pendingBreach.anyOf[0].properties.agent.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
var valid20 = _errs121 === errors;
}
else {
var valid20 = true;
}
if(valid20){
if(data51.paths !== undefined){
let data55 = data51.paths;
const _errs123 = errors;
if(errors === _errs123){
if(Array.isArray(data55)){
var valid21 = true;
const len10 = data55.length;
for(let i10=0; i10<len10; i10++){
const _errs125 = errors;
if(typeof data55[i10] !== "string"){
const err5 = {instancePath:instancePath+"/pendingBreach/paths/" + i10,schemaPath:"#/properties/pendingBreach/anyOf/0/properties/paths/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
var valid21 = _errs125 === errors;
if(!valid21){
break;
}
}
}
else {
const err6 = {instancePath:instancePath+"/pendingBreach/paths",schemaPath:"#/properties/pendingBreach/anyOf/0/properties/paths/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
var valid20 = _errs123 === errors;
}
else {
var valid20 = true;
}
if(valid20){
if(data51.breach !== undefined){
const _errs127 = errors;
if(typeof data51.breach !== "string"){
const err7 = {instancePath:instancePath+"/pendingBreach/breach",schemaPath:"#/properties/pendingBreach/anyOf/0/properties/breach/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
var valid20 = _errs127 === errors;
}
else {
var valid20 = true;
}
if(valid20){
if(data51.reason !== undefined){
const _errs129 = errors;
if(typeof data51.reason !== "string"){
const err8 = {instancePath:instancePath+"/pendingBreach/reason",schemaPath:"#/properties/pendingBreach/anyOf/0/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
var valid20 = _errs129 === errors;
}
else {
var valid20 = true;
}
}
}
}
}
}
}
}
else {
const err9 = {instancePath:instancePath+"/pendingBreach",schemaPath:"#/properties/pendingBreach/anyOf/0/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
var _valid0 = _errs114 === errors;
valid19 = valid19 || _valid0;
if(!valid19){
const _errs131 = errors;
if(data51 !== null){
const err10 = {instancePath:instancePath+"/pendingBreach",schemaPath:"#/properties/pendingBreach/anyOf/1/type",keyword:"type",params:{type: "null"},message:"must be null"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
var _valid0 = _errs131 === errors;
valid19 = valid19 || _valid0;
}
if(!valid19){
const err11 = {instancePath:instancePath+"/pendingBreach",schemaPath:"#/properties/pendingBreach/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
validate11.errors = vErrors;
return false;
}
else {
errors = _errs113;
if(vErrors !== null){
if(_errs113){
vErrors.length = _errs113;
}
else {
vErrors = null;
}
}
}
var valid0 = _errs112 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.grant !== undefined){
let data59 = data.grant;
const _errs133 = errors;
const _errs134 = errors;
let valid22 = false;
const _errs135 = errors;
if(errors === _errs135){
if(data59 && typeof data59 == "object" && !Array.isArray(data59)){
let missing8;
if((((((data59.unit === undefined) && (missing8 = "unit")) || ((data59.tool === undefined) && (missing8 = "tool"))) || ((data59.paths === undefined) && (missing8 = "paths"))) || ((data59.breach === undefined) && (missing8 = "breach"))) || ((data59.reason === undefined) && (missing8 = "reason"))){
const err12 = {instancePath:instancePath+"/grant",schemaPath:"#/properties/grant/anyOf/0/required",keyword:"required",params:{missingProperty: missing8},message:"must have required property '"+missing8+"'"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
else {
if(data59.unit !== undefined){
const _errs138 = errors;
if(typeof data59.unit !== "string"){
const err13 = {instancePath:instancePath+"/grant/unit",schemaPath:"#/properties/grant/anyOf/0/properties/unit/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
var valid23 = _errs138 === errors;
}
else {
var valid23 = true;
}
if(valid23){
if(data59.tool !== undefined){
const _errs140 = errors;
if(typeof data59.tool !== "string"){
const err14 = {instancePath:instancePath+"/grant/tool",schemaPath:"#/properties/grant/anyOf/0/properties/tool/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
var valid23 = _errs140 === errors;
}
else {
var valid23 = true;
}
if(valid23){
if(data59.agent !== undefined){
let data62 = data59.agent;
const _errs142 = errors;
if(typeof data62 !== "string"){
const err15 = {instancePath:instancePath+"/grant/agent",schemaPath:"#/properties/grant/anyOf/0/properties/agent/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
if(!(((((data62 === "claude") || (data62 === "codex")) || (data62 === "gemini")) || (data62 === "opencode")) || (data62 === "forge"))){
const err16 = {instancePath:instancePath+"/grant/agent",schemaPath:"#/properties/grant/anyOf/0/properties/agent/enum",keyword:"enum",params:{allowedValues: schema12.properties.grant.anyOf[0].properties.agent.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
var valid23 = _errs142 === errors;
}
else {
var valid23 = true;
}
if(valid23){
if(data59.paths !== undefined){
let data63 = data59.paths;
const _errs144 = errors;
if(errors === _errs144){
if(Array.isArray(data63)){
var valid24 = true;
const len11 = data63.length;
for(let i11=0; i11<len11; i11++){
const _errs146 = errors;
if(typeof data63[i11] !== "string"){
const err17 = {instancePath:instancePath+"/grant/paths/" + i11,schemaPath:"#/properties/grant/anyOf/0/properties/paths/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
var valid24 = _errs146 === errors;
if(!valid24){
break;
}
}
}
else {
const err18 = {instancePath:instancePath+"/grant/paths",schemaPath:"#/properties/grant/anyOf/0/properties/paths/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
var valid23 = _errs144 === errors;
}
else {
var valid23 = true;
}
if(valid23){
if(data59.breach !== undefined){
const _errs148 = errors;
if(typeof data59.breach !== "string"){
const err19 = {instancePath:instancePath+"/grant/breach",schemaPath:"#/properties/grant/anyOf/0/properties/breach/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
var valid23 = _errs148 === errors;
}
else {
var valid23 = true;
}
if(valid23){
if(data59.reason !== undefined){
const _errs150 = errors;
if(typeof data59.reason !== "string"){
const err20 = {instancePath:instancePath+"/grant/reason",schemaPath:"#/properties/grant/anyOf/0/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
var valid23 = _errs150 === errors;
}
else {
var valid23 = true;
}
}
}
}
}
}
}
}
else {
const err21 = {instancePath:instancePath+"/grant",schemaPath:"#/properties/grant/anyOf/0/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
var _valid1 = _errs135 === errors;
valid22 = valid22 || _valid1;
if(!valid22){
const _errs152 = errors;
if(data59 !== null){
const err22 = {instancePath:instancePath+"/grant",schemaPath:"#/properties/grant/anyOf/1/type",keyword:"type",params:{type: "null"},message:"must be null"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
var _valid1 = _errs152 === errors;
valid22 = valid22 || _valid1;
}
if(!valid22){
const err23 = {instancePath:instancePath+"/grant",schemaPath:"#/properties/grant/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
validate11.errors = vErrors;
return false;
}
else {
errors = _errs134;
if(vErrors !== null){
if(_errs134){
vErrors.length = _errs134;
}
else {
vErrors = null;
}
}
}
var valid0 = _errs133 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate11.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate11.errors = vErrors;
return errors === 0;
}

export const validate_journalEntry = validate12;
const schema13 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"id":{"type":"string"},"timestamp":{"type":"string"},"plan_id":{"type":"string"},"verb":{"type":"string"},"kind":{"type":"string","enum":["Decision","Observation","Action"]},"unit":{"type":["string","null"]},"tool":{"type":"string"},"path":{"type":"string"},"reason":{"type":"string"},"breach":{"type":"string"},"posture":{"type":"string","enum":["soft","hard"]},"evidence":{"type":"array","items":{"type":"string"}}},"required":["id","timestamp","plan_id","verb","kind","unit"],"additionalProperties":{},"$id":"journalEntry"};

function validate12(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="journalEntry" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if(((((((data.id === undefined) && (missing0 = "id")) || ((data.timestamp === undefined) && (missing0 = "timestamp"))) || ((data.plan_id === undefined) && (missing0 = "plan_id"))) || ((data.verb === undefined) && (missing0 = "verb"))) || ((data.kind === undefined) && (missing0 = "kind"))) || ((data.unit === undefined) && (missing0 = "unit"))){
validate12.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.id !== undefined){
const _errs2 = errors;
if(typeof data.id !== "string"){
validate12.errors = [{instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.timestamp !== undefined){
const _errs4 = errors;
if(typeof data.timestamp !== "string"){
validate12.errors = [{instancePath:instancePath+"/timestamp",schemaPath:"#/properties/timestamp/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.plan_id !== undefined){
const _errs6 = errors;
if(typeof data.plan_id !== "string"){
validate12.errors = [{instancePath:instancePath+"/plan_id",schemaPath:"#/properties/plan_id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.verb !== undefined){
const _errs8 = errors;
if(typeof data.verb !== "string"){
validate12.errors = [{instancePath:instancePath+"/verb",schemaPath:"#/properties/verb/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs8 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.kind !== undefined){
let data4 = data.kind;
const _errs10 = errors;
if(typeof data4 !== "string"){
validate12.errors = [{instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((data4 === "Decision") || (data4 === "Observation")) || (data4 === "Action"))){
validate12.errors = [{instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/enum",keyword:"enum",params:{allowedValues: schema13.properties.kind.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs10 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.unit !== undefined){
let data5 = data.unit;
const _errs12 = errors;
if((typeof data5 !== "string") && (data5 !== null)){
validate12.errors = [{instancePath:instancePath+"/unit",schemaPath:"#/properties/unit/type",keyword:"type",params:{type: schema13.properties.unit.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs12 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.tool !== undefined){
const _errs14 = errors;
if(typeof data.tool !== "string"){
validate12.errors = [{instancePath:instancePath+"/tool",schemaPath:"#/properties/tool/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs14 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.path !== undefined){
const _errs16 = errors;
if(typeof data.path !== "string"){
validate12.errors = [{instancePath:instancePath+"/path",schemaPath:"#/properties/path/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs16 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.reason !== undefined){
const _errs18 = errors;
if(typeof data.reason !== "string"){
validate12.errors = [{instancePath:instancePath+"/reason",schemaPath:"#/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs18 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.breach !== undefined){
const _errs20 = errors;
if(typeof data.breach !== "string"){
validate12.errors = [{instancePath:instancePath+"/breach",schemaPath:"#/properties/breach/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs20 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.posture !== undefined){
let data10 = data.posture;
const _errs22 = errors;
if(typeof data10 !== "string"){
validate12.errors = [{instancePath:instancePath+"/posture",schemaPath:"#/properties/posture/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!((data10 === "soft") || (data10 === "hard"))){
validate12.errors = [{instancePath:instancePath+"/posture",schemaPath:"#/properties/posture/enum",keyword:"enum",params:{allowedValues: schema13.properties.posture.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs22 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.evidence !== undefined){
let data11 = data.evidence;
const _errs24 = errors;
if(errors === _errs24){
if(Array.isArray(data11)){
var valid1 = true;
const len0 = data11.length;
for(let i0=0; i0<len0; i0++){
const _errs26 = errors;
if(typeof data11[i0] !== "string"){
validate12.errors = [{instancePath:instancePath+"/evidence/" + i0,schemaPath:"#/properties/evidence/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid1 = _errs26 === errors;
if(!valid1){
break;
}
}
}
else {
validate12.errors = [{instancePath:instancePath+"/evidence",schemaPath:"#/properties/evidence/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs24 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate12.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate12.errors = vErrors;
return errors === 0;
}

export const validate_agentPlanPointer = validate13;
const schema14 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"id":{"type":"string","pattern":"^(?!\\.\\.?$)[\\w.-]{1,128}$"}},"required":["id"],"additionalProperties":{},"$id":"agentPlanPointer"};

function validate13(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="agentPlanPointer" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((data.id === undefined) && (missing0 = "id")){
validate13.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.id !== undefined){
let data0 = data.id;
const _errs2 = errors;
if(errors === _errs2){
if(typeof data0 === "string"){
if(!pattern0.test(data0)){
validate13.errors = [{instancePath:instancePath+"/id",schemaPath:"#/properties/id/pattern",keyword:"pattern",params:{pattern: "^(?!\\.\\.?$)[\\w.-]{1,128}$"},message:"must match pattern \""+"^(?!\\.\\.?$)[\\w.-]{1,128}$"+"\""}];
return false;
}
}
else {
validate13.errors = [{instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
}
}
}
else {
validate13.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate13.errors = vErrors;
return errors === 0;
}

export const validate_agentPlan = validate14;
const schema15 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"id":{"type":"string","pattern":"^(?!\\.\\.?$)[\\w.-]{1,128}$"},"task":{"type":"string"},"status":{"type":"string","enum":["proposed","running","paused","done","cancelled"]},"createdAt":{"type":"string"},"updatedAt":{"type":"string"},"model":{"type":"string"},"planner":{"type":"string"},"runId":{"type":"string","pattern":"^(?!\\.\\.?$)[\\w.-]{1,128}$"},"plannerTokens":{"type":"object","properties":{"input":{"type":"number"},"output":{"type":"number"}},"required":["input","output"],"additionalProperties":{}},"estimate":{"type":"object","properties":{"low":{"type":"number"},"high":{"type":"number"},"usdLow":{"type":["number","null"]},"usdHigh":{"type":["number","null"]}},"required":["low","high","usdLow","usdHigh"],"additionalProperties":{}},"steps":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"title":{"type":"string"},"objective":{"type":"string"},"files":{"type":"array","items":{"type":"string"}},"symbols":{"type":"array","items":{"type":"string"}},"verify":{"type":"array","items":{"type":"string"}},"doneWhen":{"type":"string"},"dependsOn":{"type":"array","items":{"type":"string"}},"category":{"type":"string"},"status":{"type":"string","enum":["pending","done","failed"]},"note":{"type":"string"},"summary":{"type":"string"},"attempts":{"type":"number"},"failure":{"type":"string"},"tokens":{"type":"object","properties":{"input":{"type":"number"},"output":{"type":"number"}},"required":["input","output"],"additionalProperties":{}}},"required":["id","title","objective","files","symbols","verify","doneWhen","dependsOn","status","attempts","tokens"],"additionalProperties":{}}},"reason":{"type":"string"},"checkpoint":{"type":"string"},"attached":{"type":"array","items":{"type":"string"}}},"required":["id","task","status","createdAt","updatedAt","model","planner","runId","plannerTokens","estimate","steps"],"additionalProperties":{},"$id":"agentPlan"};

function validate14(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="agentPlan" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((((((((((((data.id === undefined) && (missing0 = "id")) || ((data.task === undefined) && (missing0 = "task"))) || ((data.status === undefined) && (missing0 = "status"))) || ((data.createdAt === undefined) && (missing0 = "createdAt"))) || ((data.updatedAt === undefined) && (missing0 = "updatedAt"))) || ((data.model === undefined) && (missing0 = "model"))) || ((data.planner === undefined) && (missing0 = "planner"))) || ((data.runId === undefined) && (missing0 = "runId"))) || ((data.plannerTokens === undefined) && (missing0 = "plannerTokens"))) || ((data.estimate === undefined) && (missing0 = "estimate"))) || ((data.steps === undefined) && (missing0 = "steps"))){
validate14.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.id !== undefined){
let data0 = data.id;
const _errs2 = errors;
if(errors === _errs2){
if(typeof data0 === "string"){
if(!pattern0.test(data0)){
validate14.errors = [{instancePath:instancePath+"/id",schemaPath:"#/properties/id/pattern",keyword:"pattern",params:{pattern: "^(?!\\.\\.?$)[\\w.-]{1,128}$"},message:"must match pattern \""+"^(?!\\.\\.?$)[\\w.-]{1,128}$"+"\""}];
return false;
}
}
else {
validate14.errors = [{instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.task !== undefined){
const _errs4 = errors;
if(typeof data.task !== "string"){
validate14.errors = [{instancePath:instancePath+"/task",schemaPath:"#/properties/task/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.status !== undefined){
let data2 = data.status;
const _errs6 = errors;
if(typeof data2 !== "string"){
validate14.errors = [{instancePath:instancePath+"/status",schemaPath:"#/properties/status/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((((data2 === "proposed") || (data2 === "running")) || (data2 === "paused")) || (data2 === "done")) || (data2 === "cancelled"))){
validate14.errors = [{instancePath:instancePath+"/status",schemaPath:"#/properties/status/enum",keyword:"enum",params:{allowedValues: schema15.properties.status.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.createdAt !== undefined){
const _errs8 = errors;
if(typeof data.createdAt !== "string"){
validate14.errors = [{instancePath:instancePath+"/createdAt",schemaPath:"#/properties/createdAt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs8 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.updatedAt !== undefined){
const _errs10 = errors;
if(typeof data.updatedAt !== "string"){
validate14.errors = [{instancePath:instancePath+"/updatedAt",schemaPath:"#/properties/updatedAt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs10 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.model !== undefined){
const _errs12 = errors;
if(typeof data.model !== "string"){
validate14.errors = [{instancePath:instancePath+"/model",schemaPath:"#/properties/model/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs12 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.planner !== undefined){
const _errs14 = errors;
if(typeof data.planner !== "string"){
validate14.errors = [{instancePath:instancePath+"/planner",schemaPath:"#/properties/planner/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs14 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.runId !== undefined){
let data7 = data.runId;
const _errs16 = errors;
if(errors === _errs16){
if(typeof data7 === "string"){
if(!pattern0.test(data7)){
validate14.errors = [{instancePath:instancePath+"/runId",schemaPath:"#/properties/runId/pattern",keyword:"pattern",params:{pattern: "^(?!\\.\\.?$)[\\w.-]{1,128}$"},message:"must match pattern \""+"^(?!\\.\\.?$)[\\w.-]{1,128}$"+"\""}];
return false;
}
}
else {
validate14.errors = [{instancePath:instancePath+"/runId",schemaPath:"#/properties/runId/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs16 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.plannerTokens !== undefined){
let data8 = data.plannerTokens;
const _errs18 = errors;
if(errors === _errs18){
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
let missing1;
if(((data8.input === undefined) && (missing1 = "input")) || ((data8.output === undefined) && (missing1 = "output"))){
validate14.errors = [{instancePath:instancePath+"/plannerTokens",schemaPath:"#/properties/plannerTokens/required",keyword:"required",params:{missingProperty: missing1},message:"must have required property '"+missing1+"'"}];
return false;
}
else {
if(data8.input !== undefined){
let data9 = data8.input;
const _errs21 = errors;
if(!((typeof data9 == "number") && (isFinite(data9)))){
validate14.errors = [{instancePath:instancePath+"/plannerTokens/input",schemaPath:"#/properties/plannerTokens/properties/input/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid1 = _errs21 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data8.output !== undefined){
let data10 = data8.output;
const _errs23 = errors;
if(!((typeof data10 == "number") && (isFinite(data10)))){
validate14.errors = [{instancePath:instancePath+"/plannerTokens/output",schemaPath:"#/properties/plannerTokens/properties/output/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid1 = _errs23 === errors;
}
else {
var valid1 = true;
}
}
}
}
else {
validate14.errors = [{instancePath:instancePath+"/plannerTokens",schemaPath:"#/properties/plannerTokens/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs18 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.estimate !== undefined){
let data11 = data.estimate;
const _errs25 = errors;
if(errors === _errs25){
if(data11 && typeof data11 == "object" && !Array.isArray(data11)){
let missing2;
if(((((data11.low === undefined) && (missing2 = "low")) || ((data11.high === undefined) && (missing2 = "high"))) || ((data11.usdLow === undefined) && (missing2 = "usdLow"))) || ((data11.usdHigh === undefined) && (missing2 = "usdHigh"))){
validate14.errors = [{instancePath:instancePath+"/estimate",schemaPath:"#/properties/estimate/required",keyword:"required",params:{missingProperty: missing2},message:"must have required property '"+missing2+"'"}];
return false;
}
else {
if(data11.low !== undefined){
let data12 = data11.low;
const _errs28 = errors;
if(!((typeof data12 == "number") && (isFinite(data12)))){
validate14.errors = [{instancePath:instancePath+"/estimate/low",schemaPath:"#/properties/estimate/properties/low/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid2 = _errs28 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data11.high !== undefined){
let data13 = data11.high;
const _errs30 = errors;
if(!((typeof data13 == "number") && (isFinite(data13)))){
validate14.errors = [{instancePath:instancePath+"/estimate/high",schemaPath:"#/properties/estimate/properties/high/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid2 = _errs30 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data11.usdLow !== undefined){
let data14 = data11.usdLow;
const _errs32 = errors;
if((!((typeof data14 == "number") && (isFinite(data14)))) && (data14 !== null)){
validate14.errors = [{instancePath:instancePath+"/estimate/usdLow",schemaPath:"#/properties/estimate/properties/usdLow/type",keyword:"type",params:{type: schema15.properties.estimate.properties.usdLow.type},message:"must be number,null"}];
return false;
}
var valid2 = _errs32 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data11.usdHigh !== undefined){
let data15 = data11.usdHigh;
const _errs34 = errors;
if((!((typeof data15 == "number") && (isFinite(data15)))) && (data15 !== null)){
validate14.errors = [{instancePath:instancePath+"/estimate/usdHigh",schemaPath:"#/properties/estimate/properties/usdHigh/type",keyword:"type",params:{type: schema15.properties.estimate.properties.usdHigh.type},message:"must be number,null"}];
return false;
}
var valid2 = _errs34 === errors;
}
else {
var valid2 = true;
}
}
}
}
}
}
else {
validate14.errors = [{instancePath:instancePath+"/estimate",schemaPath:"#/properties/estimate/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs25 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.steps !== undefined){
let data16 = data.steps;
const _errs36 = errors;
if(errors === _errs36){
if(Array.isArray(data16)){
var valid3 = true;
const len0 = data16.length;
for(let i0=0; i0<len0; i0++){
let data17 = data16[i0];
const _errs38 = errors;
if(errors === _errs38){
if(data17 && typeof data17 == "object" && !Array.isArray(data17)){
let missing3;
if((((((((((((data17.id === undefined) && (missing3 = "id")) || ((data17.title === undefined) && (missing3 = "title"))) || ((data17.objective === undefined) && (missing3 = "objective"))) || ((data17.files === undefined) && (missing3 = "files"))) || ((data17.symbols === undefined) && (missing3 = "symbols"))) || ((data17.verify === undefined) && (missing3 = "verify"))) || ((data17.doneWhen === undefined) && (missing3 = "doneWhen"))) || ((data17.dependsOn === undefined) && (missing3 = "dependsOn"))) || ((data17.status === undefined) && (missing3 = "status"))) || ((data17.attempts === undefined) && (missing3 = "attempts"))) || ((data17.tokens === undefined) && (missing3 = "tokens"))){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0,schemaPath:"#/properties/steps/items/required",keyword:"required",params:{missingProperty: missing3},message:"must have required property '"+missing3+"'"}];
return false;
}
else {
if(data17.id !== undefined){
const _errs41 = errors;
if(typeof data17.id !== "string"){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/id",schemaPath:"#/properties/steps/items/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid4 = _errs41 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data17.title !== undefined){
const _errs43 = errors;
if(typeof data17.title !== "string"){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/title",schemaPath:"#/properties/steps/items/properties/title/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid4 = _errs43 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data17.objective !== undefined){
const _errs45 = errors;
if(typeof data17.objective !== "string"){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/objective",schemaPath:"#/properties/steps/items/properties/objective/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid4 = _errs45 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data17.files !== undefined){
let data21 = data17.files;
const _errs47 = errors;
if(errors === _errs47){
if(Array.isArray(data21)){
var valid5 = true;
const len1 = data21.length;
for(let i1=0; i1<len1; i1++){
const _errs49 = errors;
if(typeof data21[i1] !== "string"){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/files/" + i1,schemaPath:"#/properties/steps/items/properties/files/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid5 = _errs49 === errors;
if(!valid5){
break;
}
}
}
else {
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/files",schemaPath:"#/properties/steps/items/properties/files/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid4 = _errs47 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data17.symbols !== undefined){
let data23 = data17.symbols;
const _errs51 = errors;
if(errors === _errs51){
if(Array.isArray(data23)){
var valid6 = true;
const len2 = data23.length;
for(let i2=0; i2<len2; i2++){
const _errs53 = errors;
if(typeof data23[i2] !== "string"){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/symbols/" + i2,schemaPath:"#/properties/steps/items/properties/symbols/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid6 = _errs53 === errors;
if(!valid6){
break;
}
}
}
else {
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/symbols",schemaPath:"#/properties/steps/items/properties/symbols/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid4 = _errs51 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data17.verify !== undefined){
let data25 = data17.verify;
const _errs55 = errors;
if(errors === _errs55){
if(Array.isArray(data25)){
var valid7 = true;
const len3 = data25.length;
for(let i3=0; i3<len3; i3++){
const _errs57 = errors;
if(typeof data25[i3] !== "string"){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/verify/" + i3,schemaPath:"#/properties/steps/items/properties/verify/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid7 = _errs57 === errors;
if(!valid7){
break;
}
}
}
else {
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/verify",schemaPath:"#/properties/steps/items/properties/verify/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid4 = _errs55 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data17.doneWhen !== undefined){
const _errs59 = errors;
if(typeof data17.doneWhen !== "string"){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/doneWhen",schemaPath:"#/properties/steps/items/properties/doneWhen/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid4 = _errs59 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data17.dependsOn !== undefined){
let data28 = data17.dependsOn;
const _errs61 = errors;
if(errors === _errs61){
if(Array.isArray(data28)){
var valid8 = true;
const len4 = data28.length;
for(let i4=0; i4<len4; i4++){
const _errs63 = errors;
if(typeof data28[i4] !== "string"){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/dependsOn/" + i4,schemaPath:"#/properties/steps/items/properties/dependsOn/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid8 = _errs63 === errors;
if(!valid8){
break;
}
}
}
else {
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/dependsOn",schemaPath:"#/properties/steps/items/properties/dependsOn/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid4 = _errs61 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data17.category !== undefined){
const _errs65 = errors;
if(typeof data17.category !== "string"){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/category",schemaPath:"#/properties/steps/items/properties/category/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid4 = _errs65 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data17.status !== undefined){
let data31 = data17.status;
const _errs67 = errors;
if(typeof data31 !== "string"){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/status",schemaPath:"#/properties/steps/items/properties/status/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((data31 === "pending") || (data31 === "done")) || (data31 === "failed"))){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/status",schemaPath:"#/properties/steps/items/properties/status/enum",keyword:"enum",params:{allowedValues: schema15.properties.steps.items.properties.status.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid4 = _errs67 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data17.note !== undefined){
const _errs69 = errors;
if(typeof data17.note !== "string"){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/note",schemaPath:"#/properties/steps/items/properties/note/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid4 = _errs69 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data17.summary !== undefined){
const _errs71 = errors;
if(typeof data17.summary !== "string"){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/summary",schemaPath:"#/properties/steps/items/properties/summary/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid4 = _errs71 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data17.attempts !== undefined){
let data34 = data17.attempts;
const _errs73 = errors;
if(!((typeof data34 == "number") && (isFinite(data34)))){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/attempts",schemaPath:"#/properties/steps/items/properties/attempts/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid4 = _errs73 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data17.failure !== undefined){
const _errs75 = errors;
if(typeof data17.failure !== "string"){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/failure",schemaPath:"#/properties/steps/items/properties/failure/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid4 = _errs75 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data17.tokens !== undefined){
let data36 = data17.tokens;
const _errs77 = errors;
if(errors === _errs77){
if(data36 && typeof data36 == "object" && !Array.isArray(data36)){
let missing4;
if(((data36.input === undefined) && (missing4 = "input")) || ((data36.output === undefined) && (missing4 = "output"))){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/tokens",schemaPath:"#/properties/steps/items/properties/tokens/required",keyword:"required",params:{missingProperty: missing4},message:"must have required property '"+missing4+"'"}];
return false;
}
else {
if(data36.input !== undefined){
let data37 = data36.input;
const _errs80 = errors;
if(!((typeof data37 == "number") && (isFinite(data37)))){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/tokens/input",schemaPath:"#/properties/steps/items/properties/tokens/properties/input/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid9 = _errs80 === errors;
}
else {
var valid9 = true;
}
if(valid9){
if(data36.output !== undefined){
let data38 = data36.output;
const _errs82 = errors;
if(!((typeof data38 == "number") && (isFinite(data38)))){
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/tokens/output",schemaPath:"#/properties/steps/items/properties/tokens/properties/output/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid9 = _errs82 === errors;
}
else {
var valid9 = true;
}
}
}
}
else {
validate14.errors = [{instancePath:instancePath+"/steps/" + i0+"/tokens",schemaPath:"#/properties/steps/items/properties/tokens/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid4 = _errs77 === errors;
}
else {
var valid4 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate14.errors = [{instancePath:instancePath+"/steps/" + i0,schemaPath:"#/properties/steps/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid3 = _errs38 === errors;
if(!valid3){
break;
}
}
}
else {
validate14.errors = [{instancePath:instancePath+"/steps",schemaPath:"#/properties/steps/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs36 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.reason !== undefined){
const _errs84 = errors;
if(typeof data.reason !== "string"){
validate14.errors = [{instancePath:instancePath+"/reason",schemaPath:"#/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs84 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.checkpoint !== undefined){
const _errs86 = errors;
if(typeof data.checkpoint !== "string"){
validate14.errors = [{instancePath:instancePath+"/checkpoint",schemaPath:"#/properties/checkpoint/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs86 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.attached !== undefined){
let data41 = data.attached;
const _errs88 = errors;
if(errors === _errs88){
if(Array.isArray(data41)){
var valid10 = true;
const len5 = data41.length;
for(let i5=0; i5<len5; i5++){
const _errs90 = errors;
if(typeof data41[i5] !== "string"){
validate14.errors = [{instancePath:instancePath+"/attached/" + i5,schemaPath:"#/properties/attached/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid10 = _errs90 === errors;
if(!valid10){
break;
}
}
}
else {
validate14.errors = [{instancePath:instancePath+"/attached",schemaPath:"#/properties/attached/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs88 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate14.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate14.errors = vErrors;
return errors === 0;
}

export const validate_telemetry = validate15;
const schema16 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"timestamp":{"type":"string"},"task":{"type":"string"},"model":{"type":"string"},"endpoint":{"type":"string"},"turns":{"type":"number"},"inputTokens":{"type":"number"},"outputTokens":{"type":"number"},"estimated":{"type":"boolean"},"uncachedTokens":{"type":"number"},"toolCalls":{"type":"number"},"cacheHits":{"type":"number"},"compressionRatio":{"default":null,"type":["number","null"]},"durationMs":{"type":"number"},"exhausted":{"type":"boolean"},"cost":{"type":["number","null"]},"category":{"type":"string"}},"required":["timestamp","task","model","endpoint","turns","inputTokens","outputTokens","toolCalls","cacheHits","durationMs","exhausted","cost"],"additionalProperties":{},"$id":"telemetry"};

function validate15(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="telemetry" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.compressionRatio === undefined){
data.compressionRatio = null;
}
let missing0;
if(((((((((((((data.timestamp === undefined) && (missing0 = "timestamp")) || ((data.task === undefined) && (missing0 = "task"))) || ((data.model === undefined) && (missing0 = "model"))) || ((data.endpoint === undefined) && (missing0 = "endpoint"))) || ((data.turns === undefined) && (missing0 = "turns"))) || ((data.inputTokens === undefined) && (missing0 = "inputTokens"))) || ((data.outputTokens === undefined) && (missing0 = "outputTokens"))) || ((data.toolCalls === undefined) && (missing0 = "toolCalls"))) || ((data.cacheHits === undefined) && (missing0 = "cacheHits"))) || ((data.durationMs === undefined) && (missing0 = "durationMs"))) || ((data.exhausted === undefined) && (missing0 = "exhausted"))) || ((data.cost === undefined) && (missing0 = "cost"))){
validate15.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.timestamp !== undefined){
const _errs2 = errors;
if(typeof data.timestamp !== "string"){
validate15.errors = [{instancePath:instancePath+"/timestamp",schemaPath:"#/properties/timestamp/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.task !== undefined){
const _errs4 = errors;
if(typeof data.task !== "string"){
validate15.errors = [{instancePath:instancePath+"/task",schemaPath:"#/properties/task/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.model !== undefined){
const _errs6 = errors;
if(typeof data.model !== "string"){
validate15.errors = [{instancePath:instancePath+"/model",schemaPath:"#/properties/model/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.endpoint !== undefined){
const _errs8 = errors;
if(typeof data.endpoint !== "string"){
validate15.errors = [{instancePath:instancePath+"/endpoint",schemaPath:"#/properties/endpoint/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs8 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.turns !== undefined){
let data4 = data.turns;
const _errs10 = errors;
if(!((typeof data4 == "number") && (isFinite(data4)))){
validate15.errors = [{instancePath:instancePath+"/turns",schemaPath:"#/properties/turns/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid0 = _errs10 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.inputTokens !== undefined){
let data5 = data.inputTokens;
const _errs12 = errors;
if(!((typeof data5 == "number") && (isFinite(data5)))){
validate15.errors = [{instancePath:instancePath+"/inputTokens",schemaPath:"#/properties/inputTokens/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid0 = _errs12 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.outputTokens !== undefined){
let data6 = data.outputTokens;
const _errs14 = errors;
if(!((typeof data6 == "number") && (isFinite(data6)))){
validate15.errors = [{instancePath:instancePath+"/outputTokens",schemaPath:"#/properties/outputTokens/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid0 = _errs14 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.estimated !== undefined){
const _errs16 = errors;
if(typeof data.estimated !== "boolean"){
validate15.errors = [{instancePath:instancePath+"/estimated",schemaPath:"#/properties/estimated/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid0 = _errs16 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.uncachedTokens !== undefined){
let data8 = data.uncachedTokens;
const _errs18 = errors;
if(!((typeof data8 == "number") && (isFinite(data8)))){
validate15.errors = [{instancePath:instancePath+"/uncachedTokens",schemaPath:"#/properties/uncachedTokens/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid0 = _errs18 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.toolCalls !== undefined){
let data9 = data.toolCalls;
const _errs20 = errors;
if(!((typeof data9 == "number") && (isFinite(data9)))){
validate15.errors = [{instancePath:instancePath+"/toolCalls",schemaPath:"#/properties/toolCalls/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid0 = _errs20 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.cacheHits !== undefined){
let data10 = data.cacheHits;
const _errs22 = errors;
if(!((typeof data10 == "number") && (isFinite(data10)))){
validate15.errors = [{instancePath:instancePath+"/cacheHits",schemaPath:"#/properties/cacheHits/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid0 = _errs22 === errors;
}
else {
var valid0 = true;
}
if(valid0){
let data11 = data.compressionRatio;
const _errs24 = errors;
if((!((typeof data11 == "number") && (isFinite(data11)))) && (data11 !== null)){
validate15.errors = [{instancePath:instancePath+"/compressionRatio",schemaPath:"#/properties/compressionRatio/type",keyword:"type",params:{type: schema16.properties.compressionRatio.type},message:"must be number,null"}];
return false;
}
var valid0 = _errs24 === errors;
if(valid0){
if(data.durationMs !== undefined){
let data12 = data.durationMs;
const _errs26 = errors;
if(!((typeof data12 == "number") && (isFinite(data12)))){
validate15.errors = [{instancePath:instancePath+"/durationMs",schemaPath:"#/properties/durationMs/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid0 = _errs26 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.exhausted !== undefined){
const _errs28 = errors;
if(typeof data.exhausted !== "boolean"){
validate15.errors = [{instancePath:instancePath+"/exhausted",schemaPath:"#/properties/exhausted/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid0 = _errs28 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.cost !== undefined){
let data14 = data.cost;
const _errs30 = errors;
if((!((typeof data14 == "number") && (isFinite(data14)))) && (data14 !== null)){
validate15.errors = [{instancePath:instancePath+"/cost",schemaPath:"#/properties/cost/type",keyword:"type",params:{type: schema16.properties.cost.type},message:"must be number,null"}];
return false;
}
var valid0 = _errs30 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.category !== undefined){
const _errs32 = errors;
if(typeof data.category !== "string"){
validate15.errors = [{instancePath:instancePath+"/category",schemaPath:"#/properties/category/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs32 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate15.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate15.errors = vErrors;
return errors === 0;
}

export const validate_agentSession = validate16;
const schema17 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"id":{"type":"string","pattern":"^(?!\\.\\.?$)[\\w.-]{1,128}$"},"createdAt":{"type":"string"},"updatedAt":{"type":"string"},"turns":{"type":"array","items":{"type":"object","properties":{"timestamp":{"type":"string"},"task":{"type":"string"},"answer":{"type":"string"},"files":{"type":"array","items":{"type":"string"}},"toolCalls":{"type":"number"},"model":{"type":"string"},"checkpoint":{"type":"string"}},"required":["timestamp","task","answer","files","toolCalls","model"],"additionalProperties":{}}},"active":{"type":"number"},"abandoned":{"type":"array","items":{"type":"object","properties":{"at":{"type":"string"},"after":{"type":"number"},"turns":{"type":"array","items":{"type":"object","properties":{"timestamp":{"type":"string"},"task":{"type":"string"},"answer":{"type":"string"},"files":{"type":"array","items":{"type":"string"}},"toolCalls":{"type":"number"},"model":{"type":"string"},"checkpoint":{"type":"string"}},"required":["timestamp","task","answer","files","toolCalls","model"],"additionalProperties":{}}}},"required":["at","after","turns"],"additionalProperties":{}}},"attached":{"type":"array","items":{"type":"string"}}},"required":["id","createdAt","updatedAt","turns"],"additionalProperties":{},"$id":"agentSession"};

function validate16(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="agentSession" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if(((((data.id === undefined) && (missing0 = "id")) || ((data.createdAt === undefined) && (missing0 = "createdAt"))) || ((data.updatedAt === undefined) && (missing0 = "updatedAt"))) || ((data.turns === undefined) && (missing0 = "turns"))){
validate16.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.id !== undefined){
let data0 = data.id;
const _errs2 = errors;
if(errors === _errs2){
if(typeof data0 === "string"){
if(!pattern0.test(data0)){
validate16.errors = [{instancePath:instancePath+"/id",schemaPath:"#/properties/id/pattern",keyword:"pattern",params:{pattern: "^(?!\\.\\.?$)[\\w.-]{1,128}$"},message:"must match pattern \""+"^(?!\\.\\.?$)[\\w.-]{1,128}$"+"\""}];
return false;
}
}
else {
validate16.errors = [{instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.createdAt !== undefined){
const _errs4 = errors;
if(typeof data.createdAt !== "string"){
validate16.errors = [{instancePath:instancePath+"/createdAt",schemaPath:"#/properties/createdAt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.updatedAt !== undefined){
const _errs6 = errors;
if(typeof data.updatedAt !== "string"){
validate16.errors = [{instancePath:instancePath+"/updatedAt",schemaPath:"#/properties/updatedAt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.turns !== undefined){
let data3 = data.turns;
const _errs8 = errors;
if(errors === _errs8){
if(Array.isArray(data3)){
var valid1 = true;
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
let data4 = data3[i0];
const _errs10 = errors;
if(errors === _errs10){
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
let missing1;
if(((((((data4.timestamp === undefined) && (missing1 = "timestamp")) || ((data4.task === undefined) && (missing1 = "task"))) || ((data4.answer === undefined) && (missing1 = "answer"))) || ((data4.files === undefined) && (missing1 = "files"))) || ((data4.toolCalls === undefined) && (missing1 = "toolCalls"))) || ((data4.model === undefined) && (missing1 = "model"))){
validate16.errors = [{instancePath:instancePath+"/turns/" + i0,schemaPath:"#/properties/turns/items/required",keyword:"required",params:{missingProperty: missing1},message:"must have required property '"+missing1+"'"}];
return false;
}
else {
if(data4.timestamp !== undefined){
const _errs13 = errors;
if(typeof data4.timestamp !== "string"){
validate16.errors = [{instancePath:instancePath+"/turns/" + i0+"/timestamp",schemaPath:"#/properties/turns/items/properties/timestamp/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs13 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data4.task !== undefined){
const _errs15 = errors;
if(typeof data4.task !== "string"){
validate16.errors = [{instancePath:instancePath+"/turns/" + i0+"/task",schemaPath:"#/properties/turns/items/properties/task/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs15 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data4.answer !== undefined){
const _errs17 = errors;
if(typeof data4.answer !== "string"){
validate16.errors = [{instancePath:instancePath+"/turns/" + i0+"/answer",schemaPath:"#/properties/turns/items/properties/answer/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs17 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data4.files !== undefined){
let data8 = data4.files;
const _errs19 = errors;
if(errors === _errs19){
if(Array.isArray(data8)){
var valid3 = true;
const len1 = data8.length;
for(let i1=0; i1<len1; i1++){
const _errs21 = errors;
if(typeof data8[i1] !== "string"){
validate16.errors = [{instancePath:instancePath+"/turns/" + i0+"/files/" + i1,schemaPath:"#/properties/turns/items/properties/files/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid3 = _errs21 === errors;
if(!valid3){
break;
}
}
}
else {
validate16.errors = [{instancePath:instancePath+"/turns/" + i0+"/files",schemaPath:"#/properties/turns/items/properties/files/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid2 = _errs19 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data4.toolCalls !== undefined){
let data10 = data4.toolCalls;
const _errs23 = errors;
if(!((typeof data10 == "number") && (isFinite(data10)))){
validate16.errors = [{instancePath:instancePath+"/turns/" + i0+"/toolCalls",schemaPath:"#/properties/turns/items/properties/toolCalls/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid2 = _errs23 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data4.model !== undefined){
const _errs25 = errors;
if(typeof data4.model !== "string"){
validate16.errors = [{instancePath:instancePath+"/turns/" + i0+"/model",schemaPath:"#/properties/turns/items/properties/model/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs25 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data4.checkpoint !== undefined){
const _errs27 = errors;
if(typeof data4.checkpoint !== "string"){
validate16.errors = [{instancePath:instancePath+"/turns/" + i0+"/checkpoint",schemaPath:"#/properties/turns/items/properties/checkpoint/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs27 === errors;
}
else {
var valid2 = true;
}
}
}
}
}
}
}
}
}
else {
validate16.errors = [{instancePath:instancePath+"/turns/" + i0,schemaPath:"#/properties/turns/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid1 = _errs10 === errors;
if(!valid1){
break;
}
}
}
else {
validate16.errors = [{instancePath:instancePath+"/turns",schemaPath:"#/properties/turns/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs8 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.active !== undefined){
let data13 = data.active;
const _errs29 = errors;
if(!((typeof data13 == "number") && (isFinite(data13)))){
validate16.errors = [{instancePath:instancePath+"/active",schemaPath:"#/properties/active/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid0 = _errs29 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.abandoned !== undefined){
let data14 = data.abandoned;
const _errs31 = errors;
if(errors === _errs31){
if(Array.isArray(data14)){
var valid4 = true;
const len2 = data14.length;
for(let i2=0; i2<len2; i2++){
let data15 = data14[i2];
const _errs33 = errors;
if(errors === _errs33){
if(data15 && typeof data15 == "object" && !Array.isArray(data15)){
let missing2;
if((((data15.at === undefined) && (missing2 = "at")) || ((data15.after === undefined) && (missing2 = "after"))) || ((data15.turns === undefined) && (missing2 = "turns"))){
validate16.errors = [{instancePath:instancePath+"/abandoned/" + i2,schemaPath:"#/properties/abandoned/items/required",keyword:"required",params:{missingProperty: missing2},message:"must have required property '"+missing2+"'"}];
return false;
}
else {
if(data15.at !== undefined){
const _errs36 = errors;
if(typeof data15.at !== "string"){
validate16.errors = [{instancePath:instancePath+"/abandoned/" + i2+"/at",schemaPath:"#/properties/abandoned/items/properties/at/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid5 = _errs36 === errors;
}
else {
var valid5 = true;
}
if(valid5){
if(data15.after !== undefined){
let data17 = data15.after;
const _errs38 = errors;
if(!((typeof data17 == "number") && (isFinite(data17)))){
validate16.errors = [{instancePath:instancePath+"/abandoned/" + i2+"/after",schemaPath:"#/properties/abandoned/items/properties/after/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid5 = _errs38 === errors;
}
else {
var valid5 = true;
}
if(valid5){
if(data15.turns !== undefined){
let data18 = data15.turns;
const _errs40 = errors;
if(errors === _errs40){
if(Array.isArray(data18)){
var valid6 = true;
const len3 = data18.length;
for(let i3=0; i3<len3; i3++){
let data19 = data18[i3];
const _errs42 = errors;
if(errors === _errs42){
if(data19 && typeof data19 == "object" && !Array.isArray(data19)){
let missing3;
if(((((((data19.timestamp === undefined) && (missing3 = "timestamp")) || ((data19.task === undefined) && (missing3 = "task"))) || ((data19.answer === undefined) && (missing3 = "answer"))) || ((data19.files === undefined) && (missing3 = "files"))) || ((data19.toolCalls === undefined) && (missing3 = "toolCalls"))) || ((data19.model === undefined) && (missing3 = "model"))){
validate16.errors = [{instancePath:instancePath+"/abandoned/" + i2+"/turns/" + i3,schemaPath:"#/properties/abandoned/items/properties/turns/items/required",keyword:"required",params:{missingProperty: missing3},message:"must have required property '"+missing3+"'"}];
return false;
}
else {
if(data19.timestamp !== undefined){
const _errs45 = errors;
if(typeof data19.timestamp !== "string"){
validate16.errors = [{instancePath:instancePath+"/abandoned/" + i2+"/turns/" + i3+"/timestamp",schemaPath:"#/properties/abandoned/items/properties/turns/items/properties/timestamp/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid7 = _errs45 === errors;
}
else {
var valid7 = true;
}
if(valid7){
if(data19.task !== undefined){
const _errs47 = errors;
if(typeof data19.task !== "string"){
validate16.errors = [{instancePath:instancePath+"/abandoned/" + i2+"/turns/" + i3+"/task",schemaPath:"#/properties/abandoned/items/properties/turns/items/properties/task/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid7 = _errs47 === errors;
}
else {
var valid7 = true;
}
if(valid7){
if(data19.answer !== undefined){
const _errs49 = errors;
if(typeof data19.answer !== "string"){
validate16.errors = [{instancePath:instancePath+"/abandoned/" + i2+"/turns/" + i3+"/answer",schemaPath:"#/properties/abandoned/items/properties/turns/items/properties/answer/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid7 = _errs49 === errors;
}
else {
var valid7 = true;
}
if(valid7){
if(data19.files !== undefined){
let data23 = data19.files;
const _errs51 = errors;
if(errors === _errs51){
if(Array.isArray(data23)){
var valid8 = true;
const len4 = data23.length;
for(let i4=0; i4<len4; i4++){
const _errs53 = errors;
if(typeof data23[i4] !== "string"){
validate16.errors = [{instancePath:instancePath+"/abandoned/" + i2+"/turns/" + i3+"/files/" + i4,schemaPath:"#/properties/abandoned/items/properties/turns/items/properties/files/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid8 = _errs53 === errors;
if(!valid8){
break;
}
}
}
else {
validate16.errors = [{instancePath:instancePath+"/abandoned/" + i2+"/turns/" + i3+"/files",schemaPath:"#/properties/abandoned/items/properties/turns/items/properties/files/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid7 = _errs51 === errors;
}
else {
var valid7 = true;
}
if(valid7){
if(data19.toolCalls !== undefined){
let data25 = data19.toolCalls;
const _errs55 = errors;
if(!((typeof data25 == "number") && (isFinite(data25)))){
validate16.errors = [{instancePath:instancePath+"/abandoned/" + i2+"/turns/" + i3+"/toolCalls",schemaPath:"#/properties/abandoned/items/properties/turns/items/properties/toolCalls/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid7 = _errs55 === errors;
}
else {
var valid7 = true;
}
if(valid7){
if(data19.model !== undefined){
const _errs57 = errors;
if(typeof data19.model !== "string"){
validate16.errors = [{instancePath:instancePath+"/abandoned/" + i2+"/turns/" + i3+"/model",schemaPath:"#/properties/abandoned/items/properties/turns/items/properties/model/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid7 = _errs57 === errors;
}
else {
var valid7 = true;
}
if(valid7){
if(data19.checkpoint !== undefined){
const _errs59 = errors;
if(typeof data19.checkpoint !== "string"){
validate16.errors = [{instancePath:instancePath+"/abandoned/" + i2+"/turns/" + i3+"/checkpoint",schemaPath:"#/properties/abandoned/items/properties/turns/items/properties/checkpoint/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid7 = _errs59 === errors;
}
else {
var valid7 = true;
}
}
}
}
}
}
}
}
}
else {
validate16.errors = [{instancePath:instancePath+"/abandoned/" + i2+"/turns/" + i3,schemaPath:"#/properties/abandoned/items/properties/turns/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid6 = _errs42 === errors;
if(!valid6){
break;
}
}
}
else {
validate16.errors = [{instancePath:instancePath+"/abandoned/" + i2+"/turns",schemaPath:"#/properties/abandoned/items/properties/turns/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid5 = _errs40 === errors;
}
else {
var valid5 = true;
}
}
}
}
}
else {
validate16.errors = [{instancePath:instancePath+"/abandoned/" + i2,schemaPath:"#/properties/abandoned/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid4 = _errs33 === errors;
if(!valid4){
break;
}
}
}
else {
validate16.errors = [{instancePath:instancePath+"/abandoned",schemaPath:"#/properties/abandoned/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs31 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.attached !== undefined){
let data28 = data.attached;
const _errs61 = errors;
if(errors === _errs61){
if(Array.isArray(data28)){
var valid9 = true;
const len5 = data28.length;
for(let i5=0; i5<len5; i5++){
const _errs63 = errors;
if(typeof data28[i5] !== "string"){
validate16.errors = [{instancePath:instancePath+"/attached/" + i5,schemaPath:"#/properties/attached/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid9 = _errs63 === errors;
if(!valid9){
break;
}
}
}
else {
validate16.errors = [{instancePath:instancePath+"/attached",schemaPath:"#/properties/attached/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs61 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
else {
validate16.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate16.errors = vErrors;
return errors === 0;
}

export const validate_logEvent = validate17;
const schema18 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"id":{"type":"string"},"timestamp":{"type":"string"},"runId":{"type":"string","pattern":"^(?!\\.\\.?$)[\\w.-]{1,128}$"},"phase":{"type":"string","enum":["planning","execution","validation","review","retry","memory","session","tool_call","plan_validation"]},"moduleId":{"type":["string","null"]},"event":{"type":"string"},"severity":{"type":"string","enum":["info","warn","error"]},"data":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{}}},"required":["id","timestamp","runId","phase","moduleId","event","severity","data"],"additionalProperties":{},"$id":"logEvent"};

function validate17(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="logEvent" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if(((((((((data.id === undefined) && (missing0 = "id")) || ((data.timestamp === undefined) && (missing0 = "timestamp"))) || ((data.runId === undefined) && (missing0 = "runId"))) || ((data.phase === undefined) && (missing0 = "phase"))) || ((data.moduleId === undefined) && (missing0 = "moduleId"))) || ((data.event === undefined) && (missing0 = "event"))) || ((data.severity === undefined) && (missing0 = "severity"))) || ((data.data === undefined) && (missing0 = "data"))){
validate17.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.id !== undefined){
const _errs2 = errors;
if(typeof data.id !== "string"){
validate17.errors = [{instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.timestamp !== undefined){
const _errs4 = errors;
if(typeof data.timestamp !== "string"){
validate17.errors = [{instancePath:instancePath+"/timestamp",schemaPath:"#/properties/timestamp/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.runId !== undefined){
let data2 = data.runId;
const _errs6 = errors;
if(errors === _errs6){
if(typeof data2 === "string"){
if(!pattern0.test(data2)){
validate17.errors = [{instancePath:instancePath+"/runId",schemaPath:"#/properties/runId/pattern",keyword:"pattern",params:{pattern: "^(?!\\.\\.?$)[\\w.-]{1,128}$"},message:"must match pattern \""+"^(?!\\.\\.?$)[\\w.-]{1,128}$"+"\""}];
return false;
}
}
else {
validate17.errors = [{instancePath:instancePath+"/runId",schemaPath:"#/properties/runId/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.phase !== undefined){
let data3 = data.phase;
const _errs8 = errors;
if(typeof data3 !== "string"){
validate17.errors = [{instancePath:instancePath+"/phase",schemaPath:"#/properties/phase/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((((((((data3 === "planning") || (data3 === "execution")) || (data3 === "validation")) || (data3 === "review")) || (data3 === "retry")) || (data3 === "memory")) || (data3 === "session")) || (data3 === "tool_call")) || (data3 === "plan_validation"))){
validate17.errors = [{instancePath:instancePath+"/phase",schemaPath:"#/properties/phase/enum",keyword:"enum",params:{allowedValues: schema18.properties.phase.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs8 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.moduleId !== undefined){
let data4 = data.moduleId;
const _errs10 = errors;
if((typeof data4 !== "string") && (data4 !== null)){
validate17.errors = [{instancePath:instancePath+"/moduleId",schemaPath:"#/properties/moduleId/type",keyword:"type",params:{type: schema18.properties.moduleId.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs10 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.event !== undefined){
const _errs12 = errors;
if(typeof data.event !== "string"){
validate17.errors = [{instancePath:instancePath+"/event",schemaPath:"#/properties/event/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs12 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.severity !== undefined){
let data6 = data.severity;
const _errs14 = errors;
if(typeof data6 !== "string"){
validate17.errors = [{instancePath:instancePath+"/severity",schemaPath:"#/properties/severity/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((data6 === "info") || (data6 === "warn")) || (data6 === "error"))){
validate17.errors = [{instancePath:instancePath+"/severity",schemaPath:"#/properties/severity/enum",keyword:"enum",params:{allowedValues: schema18.properties.severity.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs14 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.data !== undefined){
let data7 = data.data;
const _errs16 = errors;
if(errors === _errs16){
if(data7 && typeof data7 == "object" && !Array.isArray(data7)){
for(const key0 in data7){
const _errs18 = errors;
if(typeof key0 !== "string"){
const err0 = {instancePath:instancePath+"/data",schemaPath:"#/properties/data/propertyNames/type",keyword:"type",params:{type: "string"},message:"must be string",propertyName:key0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
var valid1 = _errs18 === errors;
if(!valid1){
const err1 = {instancePath:instancePath+"/data",schemaPath:"#/properties/data/propertyNames",keyword:"propertyNames",params:{propertyName: key0},message:"property name must be valid"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
validate17.errors = vErrors;
return false;
break;
}
}
}
else {
validate17.errors = [{instancePath:instancePath+"/data",schemaPath:"#/properties/data/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs16 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
else {
validate17.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate17.errors = vErrors;
return errors === 0;
}

export const validate_session = validate18;
const schema19 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"runId":{"default":"","type":"string"},"currentPhase":{"default":null,"type":["string","null"]},"moduleStatuses":{"default":{},"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"type":"string"}},"completedCount":{"default":0,"type":"number"},"totalCount":{"default":0,"type":"number"},"lastUpdatedAt":{"default":"","type":"string"},"updatedAt":{"default":"","type":"string"}},"additionalProperties":{},"$id":"session"};

function validate18(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="session" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.runId === undefined){
data.runId = "";
}
if(data.currentPhase === undefined){
data.currentPhase = null;
}
if(data.moduleStatuses === undefined){
data.moduleStatuses = {};
}
if(data.completedCount === undefined){
data.completedCount = 0;
}
if(data.totalCount === undefined){
data.totalCount = 0;
}
if(data.lastUpdatedAt === undefined){
data.lastUpdatedAt = "";
}
if(data.updatedAt === undefined){
data.updatedAt = "";
}
const _errs2 = errors;
if(typeof data.runId !== "string"){
validate18.errors = [{instancePath:instancePath+"/runId",schemaPath:"#/properties/runId/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs2 === errors;
if(valid0){
let data1 = data.currentPhase;
const _errs4 = errors;
if((typeof data1 !== "string") && (data1 !== null)){
validate18.errors = [{instancePath:instancePath+"/currentPhase",schemaPath:"#/properties/currentPhase/type",keyword:"type",params:{type: schema19.properties.currentPhase.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs4 === errors;
if(valid0){
let data2 = data.moduleStatuses;
const _errs6 = errors;
if(errors === _errs6){
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
for(const key0 in data2){
const _errs8 = errors;
if(typeof key0 !== "string"){
const err0 = {instancePath:instancePath+"/moduleStatuses",schemaPath:"#/properties/moduleStatuses/propertyNames/type",keyword:"type",params:{type: "string"},message:"must be string",propertyName:key0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
var valid1 = _errs8 === errors;
if(!valid1){
const err1 = {instancePath:instancePath+"/moduleStatuses",schemaPath:"#/properties/moduleStatuses/propertyNames",keyword:"propertyNames",params:{propertyName: key0},message:"property name must be valid"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
validate18.errors = vErrors;
return false;
break;
}
}
if(valid1){
for(const key1 in data2){
const _errs11 = errors;
if(typeof data2[key1] !== "string"){
validate18.errors = [{instancePath:instancePath+"/moduleStatuses/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/moduleStatuses/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs11 === errors;
if(!valid2){
break;
}
}
}
}
else {
validate18.errors = [{instancePath:instancePath+"/moduleStatuses",schemaPath:"#/properties/moduleStatuses/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs6 === errors;
if(valid0){
let data4 = data.completedCount;
const _errs13 = errors;
if(!((typeof data4 == "number") && (isFinite(data4)))){
validate18.errors = [{instancePath:instancePath+"/completedCount",schemaPath:"#/properties/completedCount/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid0 = _errs13 === errors;
if(valid0){
let data5 = data.totalCount;
const _errs15 = errors;
if(!((typeof data5 == "number") && (isFinite(data5)))){
validate18.errors = [{instancePath:instancePath+"/totalCount",schemaPath:"#/properties/totalCount/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid0 = _errs15 === errors;
if(valid0){
const _errs17 = errors;
if(typeof data.lastUpdatedAt !== "string"){
validate18.errors = [{instancePath:instancePath+"/lastUpdatedAt",schemaPath:"#/properties/lastUpdatedAt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs17 === errors;
if(valid0){
const _errs19 = errors;
if(typeof data.updatedAt !== "string"){
validate18.errors = [{instancePath:instancePath+"/updatedAt",schemaPath:"#/properties/updatedAt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs19 === errors;
}
}
}
}
}
}
}
else {
validate18.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate18.errors = vErrors;
return errors === 0;
}

export const validate_iterState = validate19;
const schema20 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"runId":{"default":"","type":"string"},"moduleId":{"default":"","type":"string"},"attempts":{"default":[],"type":"array","items":{"type":"object","properties":{"timestamp":{"type":"string"},"status":{"type":"string","enum":["passed","failed","error"]},"score":{"type":["number","null"]},"issues":{"type":"array","items":{"type":"string"}},"rootCause":{"type":"string"}},"required":["timestamp","status","score","issues"],"additionalProperties":{}}},"scores":{"default":[],"type":"array","items":{"type":"number"}},"stagnant":{"default":false,"type":"boolean"},"lastStatus":{"default":null,"anyOf":[{"type":"string","enum":["passed","failed","error"]},{"type":"null"}]},"lastRootCause":{"default":null,"type":["string","null"]},"updatedAt":{"default":null,"type":["string","null"]}},"additionalProperties":{},"$id":"iterState"};

function validate19(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="iterState" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.runId === undefined){
data.runId = "";
}
if(data.moduleId === undefined){
data.moduleId = "";
}
if(data.attempts === undefined){
data.attempts = [];
}
if(data.scores === undefined){
data.scores = [];
}
if(data.stagnant === undefined){
data.stagnant = false;
}
if(data.lastStatus === undefined){
data.lastStatus = null;
}
if(data.lastRootCause === undefined){
data.lastRootCause = null;
}
if(data.updatedAt === undefined){
data.updatedAt = null;
}
const _errs2 = errors;
if(typeof data.runId !== "string"){
validate19.errors = [{instancePath:instancePath+"/runId",schemaPath:"#/properties/runId/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs2 === errors;
if(valid0){
const _errs4 = errors;
if(typeof data.moduleId !== "string"){
validate19.errors = [{instancePath:instancePath+"/moduleId",schemaPath:"#/properties/moduleId/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs4 === errors;
if(valid0){
let data2 = data.attempts;
const _errs6 = errors;
if(errors === _errs6){
if(Array.isArray(data2)){
var valid1 = true;
const len0 = data2.length;
for(let i0=0; i0<len0; i0++){
let data3 = data2[i0];
const _errs8 = errors;
if(errors === _errs8){
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
let missing0;
if(((((data3.timestamp === undefined) && (missing0 = "timestamp")) || ((data3.status === undefined) && (missing0 = "status"))) || ((data3.score === undefined) && (missing0 = "score"))) || ((data3.issues === undefined) && (missing0 = "issues"))){
validate19.errors = [{instancePath:instancePath+"/attempts/" + i0,schemaPath:"#/properties/attempts/items/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data3.timestamp !== undefined){
const _errs11 = errors;
if(typeof data3.timestamp !== "string"){
validate19.errors = [{instancePath:instancePath+"/attempts/" + i0+"/timestamp",schemaPath:"#/properties/attempts/items/properties/timestamp/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs11 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data3.status !== undefined){
let data5 = data3.status;
const _errs13 = errors;
if(typeof data5 !== "string"){
validate19.errors = [{instancePath:instancePath+"/attempts/" + i0+"/status",schemaPath:"#/properties/attempts/items/properties/status/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((data5 === "passed") || (data5 === "failed")) || (data5 === "error"))){
validate19.errors = [{instancePath:instancePath+"/attempts/" + i0+"/status",schemaPath:"#/properties/attempts/items/properties/status/enum",keyword:"enum",params:{allowedValues: schema20.properties.attempts.items.properties.status.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid2 = _errs13 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data3.score !== undefined){
let data6 = data3.score;
const _errs15 = errors;
if((!((typeof data6 == "number") && (isFinite(data6)))) && (data6 !== null)){
validate19.errors = [{instancePath:instancePath+"/attempts/" + i0+"/score",schemaPath:"#/properties/attempts/items/properties/score/type",keyword:"type",params:{type: schema20.properties.attempts.items.properties.score.type},message:"must be number,null"}];
return false;
}
var valid2 = _errs15 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data3.issues !== undefined){
let data7 = data3.issues;
const _errs17 = errors;
if(errors === _errs17){
if(Array.isArray(data7)){
var valid3 = true;
const len1 = data7.length;
for(let i1=0; i1<len1; i1++){
const _errs19 = errors;
if(typeof data7[i1] !== "string"){
validate19.errors = [{instancePath:instancePath+"/attempts/" + i0+"/issues/" + i1,schemaPath:"#/properties/attempts/items/properties/issues/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid3 = _errs19 === errors;
if(!valid3){
break;
}
}
}
else {
validate19.errors = [{instancePath:instancePath+"/attempts/" + i0+"/issues",schemaPath:"#/properties/attempts/items/properties/issues/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid2 = _errs17 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data3.rootCause !== undefined){
const _errs21 = errors;
if(typeof data3.rootCause !== "string"){
validate19.errors = [{instancePath:instancePath+"/attempts/" + i0+"/rootCause",schemaPath:"#/properties/attempts/items/properties/rootCause/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs21 === errors;
}
else {
var valid2 = true;
}
}
}
}
}
}
}
else {
validate19.errors = [{instancePath:instancePath+"/attempts/" + i0,schemaPath:"#/properties/attempts/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid1 = _errs8 === errors;
if(!valid1){
break;
}
}
}
else {
validate19.errors = [{instancePath:instancePath+"/attempts",schemaPath:"#/properties/attempts/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs6 === errors;
if(valid0){
let data10 = data.scores;
const _errs23 = errors;
if(errors === _errs23){
if(Array.isArray(data10)){
var valid4 = true;
const len2 = data10.length;
for(let i2=0; i2<len2; i2++){
let data11 = data10[i2];
const _errs25 = errors;
if(!((typeof data11 == "number") && (isFinite(data11)))){
validate19.errors = [{instancePath:instancePath+"/scores/" + i2,schemaPath:"#/properties/scores/items/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid4 = _errs25 === errors;
if(!valid4){
break;
}
}
}
else {
validate19.errors = [{instancePath:instancePath+"/scores",schemaPath:"#/properties/scores/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs23 === errors;
if(valid0){
const _errs27 = errors;
if(typeof data.stagnant !== "boolean"){
validate19.errors = [{instancePath:instancePath+"/stagnant",schemaPath:"#/properties/stagnant/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid0 = _errs27 === errors;
if(valid0){
let data13 = data.lastStatus;
const _errs29 = errors;
const _errs30 = errors;
let valid5 = false;
const _errs31 = errors;
if(typeof data13 !== "string"){
const err0 = {instancePath:instancePath+"/lastStatus",schemaPath:"#/properties/lastStatus/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(!(((data13 === "passed") || (data13 === "failed")) || (data13 === "error"))){
const err1 = {instancePath:instancePath+"/lastStatus",schemaPath:"#/properties/lastStatus/anyOf/0/enum",keyword:"enum",params:{allowedValues: schema20.properties.lastStatus.anyOf[0].enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
var _valid0 = _errs31 === errors;
valid5 = valid5 || _valid0;
if(!valid5){
const _errs33 = errors;
if(data13 !== null){
const err2 = {instancePath:instancePath+"/lastStatus",schemaPath:"#/properties/lastStatus/anyOf/1/type",keyword:"type",params:{type: "null"},message:"must be null"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
var _valid0 = _errs33 === errors;
valid5 = valid5 || _valid0;
}
if(!valid5){
const err3 = {instancePath:instancePath+"/lastStatus",schemaPath:"#/properties/lastStatus/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
validate19.errors = vErrors;
return false;
}
else {
errors = _errs30;
if(vErrors !== null){
if(_errs30){
vErrors.length = _errs30;
}
else {
vErrors = null;
}
}
}
var valid0 = _errs29 === errors;
if(valid0){
let data14 = data.lastRootCause;
const _errs35 = errors;
if((typeof data14 !== "string") && (data14 !== null)){
validate19.errors = [{instancePath:instancePath+"/lastRootCause",schemaPath:"#/properties/lastRootCause/type",keyword:"type",params:{type: schema20.properties.lastRootCause.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs35 === errors;
if(valid0){
let data15 = data.updatedAt;
const _errs37 = errors;
if((typeof data15 !== "string") && (data15 !== null)){
validate19.errors = [{instancePath:instancePath+"/updatedAt",schemaPath:"#/properties/updatedAt/type",keyword:"type",params:{type: schema20.properties.updatedAt.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs37 === errors;
}
}
}
}
}
}
}
}
else {
validate19.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate19.errors = vErrors;
return errors === 0;
}

export const validate_loopPointer = validate20;
const schema21 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"loop_id":{"type":"string","pattern":"^(?!\\.\\.?$)[\\w.-]{1,128}$"}},"required":["loop_id"],"additionalProperties":{},"$id":"loopPointer"};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="loopPointer" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((data.loop_id === undefined) && (missing0 = "loop_id")){
validate20.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.loop_id !== undefined){
let data0 = data.loop_id;
const _errs2 = errors;
if(errors === _errs2){
if(typeof data0 === "string"){
if(!pattern0.test(data0)){
validate20.errors = [{instancePath:instancePath+"/loop_id",schemaPath:"#/properties/loop_id/pattern",keyword:"pattern",params:{pattern: "^(?!\\.\\.?$)[\\w.-]{1,128}$"},message:"must match pattern \""+"^(?!\\.\\.?$)[\\w.-]{1,128}$"+"\""}];
return false;
}
}
else {
validate20.errors = [{instancePath:instancePath+"/loop_id",schemaPath:"#/properties/loop_id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
}
}
}
else {
validate20.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate20.errors = vErrors;
return errors === 0;
}

export const validate_loop = validate21;
const schema22 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"loop_id":{"type":"string","pattern":"^(?!\\.\\.?$)[\\w.-]{1,128}$"},"prompt":{"type":"string"},"promptFile":{"type":["string","null"]},"iteration":{"type":"integer","minimum":0,"maximum":9007199254740991},"max":{"type":"integer","minimum":0,"maximum":9007199254740991},"promise":{"type":["string","null"]},"doneWhen":{"type":["string","null"]},"doneWhenTimeout":{"type":"number"},"status":{"type":"string","enum":["active","paused","complete","max_reached","cancelled"]},"reason":{"type":["string","null"]},"driver":{"type":"string","enum":["hook","run"]},"agent":{"default":null,"anyOf":[{"type":"string","enum":["claude","codex","gemini"]},{"type":"null"}]},"session":{"type":["string","null"]},"command":{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"null"}]},"runId":{"type":"string","pattern":"^(?!\\.\\.?$)[\\w.-]{1,128}$"},"runnerPid":{"anyOf":[{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991},{"type":"null"}]},"startedAt":{"type":"string"},"updatedAt":{"type":"string"},"iterations":{"type":"array","items":{"type":"object","properties":{"n":{"type":"number"},"endedAt":{"type":"string"},"chars":{"type":"number"},"digest":{"type":"string"},"control":{"anyOf":[{"type":"string","enum":["complete","pause","promise"]},{"type":"null"}]},"exitCode":{"type":["number","null"]},"doneWhen":{"type":"object","properties":{"passed":{"type":"boolean"},"exitCode":{"type":["number","null"]},"timedOut":{"type":"boolean"},"tail":{"type":"string"}},"required":["passed","exitCode","timedOut","tail"],"additionalProperties":{}},"hookBlock":{"type":"number"},"accumulated":{"type":"object","properties":{"chars":{"type":"number"},"sha1":{"type":"string"}},"required":["chars","sha1"],"additionalProperties":{}}},"required":["n","endedAt","chars","digest","control"],"additionalProperties":{}}}},"required":["loop_id","prompt","promptFile","iteration","max","promise","doneWhen","doneWhenTimeout","status","reason","driver","session","command","runId","runnerPid","startedAt","updatedAt","iterations"],"additionalProperties":{},"$id":"loop"};

function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="loop" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.agent === undefined){
data.agent = null;
}
let missing0;
if(((((((((((((((((((data.loop_id === undefined) && (missing0 = "loop_id")) || ((data.prompt === undefined) && (missing0 = "prompt"))) || ((data.promptFile === undefined) && (missing0 = "promptFile"))) || ((data.iteration === undefined) && (missing0 = "iteration"))) || ((data.max === undefined) && (missing0 = "max"))) || ((data.promise === undefined) && (missing0 = "promise"))) || ((data.doneWhen === undefined) && (missing0 = "doneWhen"))) || ((data.doneWhenTimeout === undefined) && (missing0 = "doneWhenTimeout"))) || ((data.status === undefined) && (missing0 = "status"))) || ((data.reason === undefined) && (missing0 = "reason"))) || ((data.driver === undefined) && (missing0 = "driver"))) || ((data.session === undefined) && (missing0 = "session"))) || ((data.command === undefined) && (missing0 = "command"))) || ((data.runId === undefined) && (missing0 = "runId"))) || ((data.runnerPid === undefined) && (missing0 = "runnerPid"))) || ((data.startedAt === undefined) && (missing0 = "startedAt"))) || ((data.updatedAt === undefined) && (missing0 = "updatedAt"))) || ((data.iterations === undefined) && (missing0 = "iterations"))){
validate21.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.loop_id !== undefined){
let data0 = data.loop_id;
const _errs2 = errors;
if(errors === _errs2){
if(typeof data0 === "string"){
if(!pattern0.test(data0)){
validate21.errors = [{instancePath:instancePath+"/loop_id",schemaPath:"#/properties/loop_id/pattern",keyword:"pattern",params:{pattern: "^(?!\\.\\.?$)[\\w.-]{1,128}$"},message:"must match pattern \""+"^(?!\\.\\.?$)[\\w.-]{1,128}$"+"\""}];
return false;
}
}
else {
validate21.errors = [{instancePath:instancePath+"/loop_id",schemaPath:"#/properties/loop_id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.prompt !== undefined){
const _errs4 = errors;
if(typeof data.prompt !== "string"){
validate21.errors = [{instancePath:instancePath+"/prompt",schemaPath:"#/properties/prompt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.promptFile !== undefined){
let data2 = data.promptFile;
const _errs6 = errors;
if((typeof data2 !== "string") && (data2 !== null)){
validate21.errors = [{instancePath:instancePath+"/promptFile",schemaPath:"#/properties/promptFile/type",keyword:"type",params:{type: schema22.properties.promptFile.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.iteration !== undefined){
let data3 = data.iteration;
const _errs8 = errors;
if(!(((typeof data3 == "number") && (!(data3 % 1) && !isNaN(data3))) && (isFinite(data3)))){
validate21.errors = [{instancePath:instancePath+"/iteration",schemaPath:"#/properties/iteration/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs8){
if((typeof data3 == "number") && (isFinite(data3))){
if(data3 > 9007199254740991 || isNaN(data3)){
validate21.errors = [{instancePath:instancePath+"/iteration",schemaPath:"#/properties/iteration/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"}];
return false;
}
else {
if(data3 < 0 || isNaN(data3)){
validate21.errors = [{instancePath:instancePath+"/iteration",schemaPath:"#/properties/iteration/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
}
var valid0 = _errs8 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.max !== undefined){
let data4 = data.max;
const _errs10 = errors;
if(!(((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4))) && (isFinite(data4)))){
validate21.errors = [{instancePath:instancePath+"/max",schemaPath:"#/properties/max/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs10){
if((typeof data4 == "number") && (isFinite(data4))){
if(data4 > 9007199254740991 || isNaN(data4)){
validate21.errors = [{instancePath:instancePath+"/max",schemaPath:"#/properties/max/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"}];
return false;
}
else {
if(data4 < 0 || isNaN(data4)){
validate21.errors = [{instancePath:instancePath+"/max",schemaPath:"#/properties/max/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
}
var valid0 = _errs10 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.promise !== undefined){
let data5 = data.promise;
const _errs12 = errors;
if((typeof data5 !== "string") && (data5 !== null)){
validate21.errors = [{instancePath:instancePath+"/promise",schemaPath:"#/properties/promise/type",keyword:"type",params:{type: schema22.properties.promise.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs12 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.doneWhen !== undefined){
let data6 = data.doneWhen;
const _errs14 = errors;
if((typeof data6 !== "string") && (data6 !== null)){
validate21.errors = [{instancePath:instancePath+"/doneWhen",schemaPath:"#/properties/doneWhen/type",keyword:"type",params:{type: schema22.properties.doneWhen.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs14 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.doneWhenTimeout !== undefined){
let data7 = data.doneWhenTimeout;
const _errs16 = errors;
if(!((typeof data7 == "number") && (isFinite(data7)))){
validate21.errors = [{instancePath:instancePath+"/doneWhenTimeout",schemaPath:"#/properties/doneWhenTimeout/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid0 = _errs16 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.status !== undefined){
let data8 = data.status;
const _errs18 = errors;
if(typeof data8 !== "string"){
validate21.errors = [{instancePath:instancePath+"/status",schemaPath:"#/properties/status/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((((data8 === "active") || (data8 === "paused")) || (data8 === "complete")) || (data8 === "max_reached")) || (data8 === "cancelled"))){
validate21.errors = [{instancePath:instancePath+"/status",schemaPath:"#/properties/status/enum",keyword:"enum",params:{allowedValues: schema22.properties.status.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs18 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.reason !== undefined){
let data9 = data.reason;
const _errs20 = errors;
if((typeof data9 !== "string") && (data9 !== null)){
validate21.errors = [{instancePath:instancePath+"/reason",schemaPath:"#/properties/reason/type",keyword:"type",params:{type: schema22.properties.reason.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs20 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.driver !== undefined){
let data10 = data.driver;
const _errs22 = errors;
if(typeof data10 !== "string"){
validate21.errors = [{instancePath:instancePath+"/driver",schemaPath:"#/properties/driver/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!((data10 === "hook") || (data10 === "run"))){
validate21.errors = [{instancePath:instancePath+"/driver",schemaPath:"#/properties/driver/enum",keyword:"enum",params:{allowedValues: schema22.properties.driver.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs22 === errors;
}
else {
var valid0 = true;
}
if(valid0){
let data11 = data.agent;
const _errs24 = errors;
const _errs25 = errors;
let valid1 = false;
const _errs26 = errors;
if(typeof data11 !== "string"){
const err0 = {instancePath:instancePath+"/agent",schemaPath:"#/properties/agent/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(!(((data11 === "claude") || (data11 === "codex")) || (data11 === "gemini"))){
const err1 = {instancePath:instancePath+"/agent",schemaPath:"#/properties/agent/anyOf/0/enum",keyword:"enum",params:{allowedValues: schema22.properties.agent.anyOf[0].enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
var _valid0 = _errs26 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const _errs28 = errors;
if(data11 !== null){
const err2 = {instancePath:instancePath+"/agent",schemaPath:"#/properties/agent/anyOf/1/type",keyword:"type",params:{type: "null"},message:"must be null"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
var _valid0 = _errs28 === errors;
valid1 = valid1 || _valid0;
}
if(!valid1){
const err3 = {instancePath:instancePath+"/agent",schemaPath:"#/properties/agent/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
validate21.errors = vErrors;
return false;
}
else {
errors = _errs25;
if(vErrors !== null){
if(_errs25){
vErrors.length = _errs25;
}
else {
vErrors = null;
}
}
}
var valid0 = _errs24 === errors;
if(valid0){
if(data.session !== undefined){
let data12 = data.session;
const _errs30 = errors;
if((typeof data12 !== "string") && (data12 !== null)){
validate21.errors = [{instancePath:instancePath+"/session",schemaPath:"#/properties/session/type",keyword:"type",params:{type: schema22.properties.session.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs30 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.command !== undefined){
let data13 = data.command;
const _errs32 = errors;
const _errs33 = errors;
let valid2 = false;
const _errs34 = errors;
if(errors === _errs34){
if(Array.isArray(data13)){
var valid3 = true;
const len0 = data13.length;
for(let i0=0; i0<len0; i0++){
const _errs36 = errors;
if(typeof data13[i0] !== "string"){
const err4 = {instancePath:instancePath+"/command/" + i0,schemaPath:"#/properties/command/anyOf/0/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
var valid3 = _errs36 === errors;
if(!valid3){
break;
}
}
}
else {
const err5 = {instancePath:instancePath+"/command",schemaPath:"#/properties/command/anyOf/0/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
var _valid1 = _errs34 === errors;
valid2 = valid2 || _valid1;
if(!valid2){
const _errs38 = errors;
if(data13 !== null){
const err6 = {instancePath:instancePath+"/command",schemaPath:"#/properties/command/anyOf/1/type",keyword:"type",params:{type: "null"},message:"must be null"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
var _valid1 = _errs38 === errors;
valid2 = valid2 || _valid1;
}
if(!valid2){
const err7 = {instancePath:instancePath+"/command",schemaPath:"#/properties/command/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
validate21.errors = vErrors;
return false;
}
else {
errors = _errs33;
if(vErrors !== null){
if(_errs33){
vErrors.length = _errs33;
}
else {
vErrors = null;
}
}
}
var valid0 = _errs32 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.runId !== undefined){
let data15 = data.runId;
const _errs40 = errors;
if(errors === _errs40){
if(typeof data15 === "string"){
if(!pattern0.test(data15)){
validate21.errors = [{instancePath:instancePath+"/runId",schemaPath:"#/properties/runId/pattern",keyword:"pattern",params:{pattern: "^(?!\\.\\.?$)[\\w.-]{1,128}$"},message:"must match pattern \""+"^(?!\\.\\.?$)[\\w.-]{1,128}$"+"\""}];
return false;
}
}
else {
validate21.errors = [{instancePath:instancePath+"/runId",schemaPath:"#/properties/runId/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs40 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.runnerPid !== undefined){
let data16 = data.runnerPid;
const _errs42 = errors;
const _errs43 = errors;
let valid4 = false;
const _errs44 = errors;
if(!(((typeof data16 == "number") && (!(data16 % 1) && !isNaN(data16))) && (isFinite(data16)))){
const err8 = {instancePath:instancePath+"/runnerPid",schemaPath:"#/properties/runnerPid/anyOf/0/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(errors === _errs44){
if((typeof data16 == "number") && (isFinite(data16))){
if(data16 > 9007199254740991 || isNaN(data16)){
const err9 = {instancePath:instancePath+"/runnerPid",schemaPath:"#/properties/runnerPid/anyOf/0/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
else {
if(data16 < -9007199254740991 || isNaN(data16)){
const err10 = {instancePath:instancePath+"/runnerPid",schemaPath:"#/properties/runnerPid/anyOf/0/minimum",keyword:"minimum",params:{comparison: ">=", limit: -9007199254740991},message:"must be >= -9007199254740991"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
}
var _valid2 = _errs44 === errors;
valid4 = valid4 || _valid2;
if(!valid4){
const _errs46 = errors;
if(data16 !== null){
const err11 = {instancePath:instancePath+"/runnerPid",schemaPath:"#/properties/runnerPid/anyOf/1/type",keyword:"type",params:{type: "null"},message:"must be null"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
var _valid2 = _errs46 === errors;
valid4 = valid4 || _valid2;
}
if(!valid4){
const err12 = {instancePath:instancePath+"/runnerPid",schemaPath:"#/properties/runnerPid/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
validate21.errors = vErrors;
return false;
}
else {
errors = _errs43;
if(vErrors !== null){
if(_errs43){
vErrors.length = _errs43;
}
else {
vErrors = null;
}
}
}
var valid0 = _errs42 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.startedAt !== undefined){
const _errs48 = errors;
if(typeof data.startedAt !== "string"){
validate21.errors = [{instancePath:instancePath+"/startedAt",schemaPath:"#/properties/startedAt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs48 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.updatedAt !== undefined){
const _errs50 = errors;
if(typeof data.updatedAt !== "string"){
validate21.errors = [{instancePath:instancePath+"/updatedAt",schemaPath:"#/properties/updatedAt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs50 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.iterations !== undefined){
let data19 = data.iterations;
const _errs52 = errors;
if(errors === _errs52){
if(Array.isArray(data19)){
var valid5 = true;
const len1 = data19.length;
for(let i1=0; i1<len1; i1++){
let data20 = data19[i1];
const _errs54 = errors;
if(errors === _errs54){
if(data20 && typeof data20 == "object" && !Array.isArray(data20)){
let missing1;
if((((((data20.n === undefined) && (missing1 = "n")) || ((data20.endedAt === undefined) && (missing1 = "endedAt"))) || ((data20.chars === undefined) && (missing1 = "chars"))) || ((data20.digest === undefined) && (missing1 = "digest"))) || ((data20.control === undefined) && (missing1 = "control"))){
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1,schemaPath:"#/properties/iterations/items/required",keyword:"required",params:{missingProperty: missing1},message:"must have required property '"+missing1+"'"}];
return false;
}
else {
if(data20.n !== undefined){
let data21 = data20.n;
const _errs57 = errors;
if(!((typeof data21 == "number") && (isFinite(data21)))){
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/n",schemaPath:"#/properties/iterations/items/properties/n/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid6 = _errs57 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data20.endedAt !== undefined){
const _errs59 = errors;
if(typeof data20.endedAt !== "string"){
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/endedAt",schemaPath:"#/properties/iterations/items/properties/endedAt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid6 = _errs59 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data20.chars !== undefined){
let data23 = data20.chars;
const _errs61 = errors;
if(!((typeof data23 == "number") && (isFinite(data23)))){
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/chars",schemaPath:"#/properties/iterations/items/properties/chars/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid6 = _errs61 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data20.digest !== undefined){
const _errs63 = errors;
if(typeof data20.digest !== "string"){
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/digest",schemaPath:"#/properties/iterations/items/properties/digest/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid6 = _errs63 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data20.control !== undefined){
let data25 = data20.control;
const _errs65 = errors;
const _errs66 = errors;
let valid7 = false;
const _errs67 = errors;
if(typeof data25 !== "string"){
const err13 = {instancePath:instancePath+"/iterations/" + i1+"/control",schemaPath:"#/properties/iterations/items/properties/control/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(!(((data25 === "complete") || (data25 === "pause")) || (data25 === "promise"))){
const err14 = {instancePath:instancePath+"/iterations/" + i1+"/control",schemaPath:"#/properties/iterations/items/properties/control/anyOf/0/enum",keyword:"enum",params:{allowedValues: schema22.properties.iterations.items.properties.control.anyOf[0].enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
var _valid3 = _errs67 === errors;
valid7 = valid7 || _valid3;
if(!valid7){
const _errs69 = errors;
if(data25 !== null){
const err15 = {instancePath:instancePath+"/iterations/" + i1+"/control",schemaPath:"#/properties/iterations/items/properties/control/anyOf/1/type",keyword:"type",params:{type: "null"},message:"must be null"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
var _valid3 = _errs69 === errors;
valid7 = valid7 || _valid3;
}
if(!valid7){
const err16 = {instancePath:instancePath+"/iterations/" + i1+"/control",schemaPath:"#/properties/iterations/items/properties/control/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
validate21.errors = vErrors;
return false;
}
else {
errors = _errs66;
if(vErrors !== null){
if(_errs66){
vErrors.length = _errs66;
}
else {
vErrors = null;
}
}
}
var valid6 = _errs65 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data20.exitCode !== undefined){
let data26 = data20.exitCode;
const _errs71 = errors;
if((!((typeof data26 == "number") && (isFinite(data26)))) && (data26 !== null)){
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/exitCode",schemaPath:"#/properties/iterations/items/properties/exitCode/type",keyword:"type",params:{type: schema22.properties.iterations.items.properties.exitCode.type},message:"must be number,null"}];
return false;
}
var valid6 = _errs71 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data20.doneWhen !== undefined){
let data27 = data20.doneWhen;
const _errs73 = errors;
if(errors === _errs73){
if(data27 && typeof data27 == "object" && !Array.isArray(data27)){
let missing2;
if(((((data27.passed === undefined) && (missing2 = "passed")) || ((data27.exitCode === undefined) && (missing2 = "exitCode"))) || ((data27.timedOut === undefined) && (missing2 = "timedOut"))) || ((data27.tail === undefined) && (missing2 = "tail"))){
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/doneWhen",schemaPath:"#/properties/iterations/items/properties/doneWhen/required",keyword:"required",params:{missingProperty: missing2},message:"must have required property '"+missing2+"'"}];
return false;
}
else {
if(data27.passed !== undefined){
const _errs76 = errors;
if(typeof data27.passed !== "boolean"){
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/doneWhen/passed",schemaPath:"#/properties/iterations/items/properties/doneWhen/properties/passed/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid8 = _errs76 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data27.exitCode !== undefined){
let data29 = data27.exitCode;
const _errs78 = errors;
if((!((typeof data29 == "number") && (isFinite(data29)))) && (data29 !== null)){
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/doneWhen/exitCode",schemaPath:"#/properties/iterations/items/properties/doneWhen/properties/exitCode/type",keyword:"type",params:{type: schema22.properties.iterations.items.properties.doneWhen.properties.exitCode.type},message:"must be number,null"}];
return false;
}
var valid8 = _errs78 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data27.timedOut !== undefined){
const _errs80 = errors;
if(typeof data27.timedOut !== "boolean"){
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/doneWhen/timedOut",schemaPath:"#/properties/iterations/items/properties/doneWhen/properties/timedOut/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid8 = _errs80 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data27.tail !== undefined){
const _errs82 = errors;
if(typeof data27.tail !== "string"){
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/doneWhen/tail",schemaPath:"#/properties/iterations/items/properties/doneWhen/properties/tail/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid8 = _errs82 === errors;
}
else {
var valid8 = true;
}
}
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/doneWhen",schemaPath:"#/properties/iterations/items/properties/doneWhen/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid6 = _errs73 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data20.hookBlock !== undefined){
let data32 = data20.hookBlock;
const _errs84 = errors;
if(!((typeof data32 == "number") && (isFinite(data32)))){
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/hookBlock",schemaPath:"#/properties/iterations/items/properties/hookBlock/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid6 = _errs84 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data20.accumulated !== undefined){
let data33 = data20.accumulated;
const _errs86 = errors;
if(errors === _errs86){
if(data33 && typeof data33 == "object" && !Array.isArray(data33)){
let missing3;
if(((data33.chars === undefined) && (missing3 = "chars")) || ((data33.sha1 === undefined) && (missing3 = "sha1"))){
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/accumulated",schemaPath:"#/properties/iterations/items/properties/accumulated/required",keyword:"required",params:{missingProperty: missing3},message:"must have required property '"+missing3+"'"}];
return false;
}
else {
if(data33.chars !== undefined){
let data34 = data33.chars;
const _errs89 = errors;
if(!((typeof data34 == "number") && (isFinite(data34)))){
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/accumulated/chars",schemaPath:"#/properties/iterations/items/properties/accumulated/properties/chars/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid9 = _errs89 === errors;
}
else {
var valid9 = true;
}
if(valid9){
if(data33.sha1 !== undefined){
const _errs91 = errors;
if(typeof data33.sha1 !== "string"){
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/accumulated/sha1",schemaPath:"#/properties/iterations/items/properties/accumulated/properties/sha1/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid9 = _errs91 === errors;
}
else {
var valid9 = true;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1+"/accumulated",schemaPath:"#/properties/iterations/items/properties/accumulated/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid6 = _errs86 === errors;
}
else {
var valid6 = true;
}
}
}
}
}
}
}
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/iterations/" + i1,schemaPath:"#/properties/iterations/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid5 = _errs54 === errors;
if(!valid5){
break;
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/iterations",schemaPath:"#/properties/iterations/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs52 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate21.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate21.errors = vErrors;
return errors === 0;
}

export const validate_memoryEntry = validate22;
const schema23 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"id":{"type":"string"},"category":{"type":"string","enum":["convention","failure_pattern","success_pattern","test_command","architecture","dependency","tool_usage"]},"pattern":{"type":"string"},"confidence":{"default":0,"type":"number"},"tags":{"default":[],"type":"array","items":{"type":"string"}},"timestamp":{"default":"","type":"string"}},"required":["id","category","pattern"],"additionalProperties":{},"$id":"memoryEntry"};

function validate22(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="memoryEntry" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.confidence === undefined){
data.confidence = 0;
}
if(data.tags === undefined){
data.tags = [];
}
if(data.timestamp === undefined){
data.timestamp = "";
}
let missing0;
if((((data.id === undefined) && (missing0 = "id")) || ((data.category === undefined) && (missing0 = "category"))) || ((data.pattern === undefined) && (missing0 = "pattern"))){
validate22.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.id !== undefined){
const _errs2 = errors;
if(typeof data.id !== "string"){
validate22.errors = [{instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.category !== undefined){
let data1 = data.category;
const _errs4 = errors;
if(typeof data1 !== "string"){
validate22.errors = [{instancePath:instancePath+"/category",schemaPath:"#/properties/category/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((((((data1 === "convention") || (data1 === "failure_pattern")) || (data1 === "success_pattern")) || (data1 === "test_command")) || (data1 === "architecture")) || (data1 === "dependency")) || (data1 === "tool_usage"))){
validate22.errors = [{instancePath:instancePath+"/category",schemaPath:"#/properties/category/enum",keyword:"enum",params:{allowedValues: schema23.properties.category.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.pattern !== undefined){
const _errs6 = errors;
if(typeof data.pattern !== "string"){
validate22.errors = [{instancePath:instancePath+"/pattern",schemaPath:"#/properties/pattern/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
}
if(valid0){
let data3 = data.confidence;
const _errs8 = errors;
if(!((typeof data3 == "number") && (isFinite(data3)))){
validate22.errors = [{instancePath:instancePath+"/confidence",schemaPath:"#/properties/confidence/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid0 = _errs8 === errors;
if(valid0){
let data4 = data.tags;
const _errs10 = errors;
if(errors === _errs10){
if(Array.isArray(data4)){
var valid1 = true;
const len0 = data4.length;
for(let i0=0; i0<len0; i0++){
const _errs12 = errors;
if(typeof data4[i0] !== "string"){
validate22.errors = [{instancePath:instancePath+"/tags/" + i0,schemaPath:"#/properties/tags/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid1 = _errs12 === errors;
if(!valid1){
break;
}
}
}
else {
validate22.errors = [{instancePath:instancePath+"/tags",schemaPath:"#/properties/tags/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs10 === errors;
if(valid0){
const _errs14 = errors;
if(typeof data.timestamp !== "string"){
validate22.errors = [{instancePath:instancePath+"/timestamp",schemaPath:"#/properties/timestamp/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs14 === errors;
}
}
}
}
}
}
}
else {
validate22.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate22.errors = vErrors;
return errors === 0;
}

export const validate_recordId = validate23;
const schema24 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":{},"$id":"recordId"};

function validate23(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="recordId" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((data.id === undefined) && (missing0 = "id")){
validate23.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.id !== undefined){
if(typeof data.id !== "string"){
validate23.errors = [{instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
}
}
else {
validate23.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate23.errors = vErrors;
return errors === 0;
}

export const validate_stamped = validate24;
const schema25 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"updatedAt":{"type":"string"},"lastUpdatedAt":{"type":"string"}},"additionalProperties":{},"$id":"stamped"};

function validate24(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="stamped" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.updatedAt !== undefined){
const _errs2 = errors;
if(typeof data.updatedAt !== "string"){
validate24.errors = [{instancePath:instancePath+"/updatedAt",schemaPath:"#/properties/updatedAt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.lastUpdatedAt !== undefined){
const _errs4 = errors;
if(typeof data.lastUpdatedAt !== "string"){
validate24.errors = [{instancePath:instancePath+"/lastUpdatedAt",schemaPath:"#/properties/lastUpdatedAt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
}
}
else {
validate24.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate24.errors = vErrors;
return errors === 0;
}

export const validate_undoMarker = validate25;
const schema26 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"pid":{"type":"integer","exclusiveMinimum":0,"maximum":9007199254740991},"target":{"type":"string","pattern":"^refs\\/"},"tree":{"type":"string","pattern":"^[0-9a-f]{40}([0-9a-f]{24})?$"},"saved":{"type":"string","pattern":"^refs\\/"}},"required":["pid","target","tree","saved"],"additionalProperties":{},"$id":"undoMarker"};
const pattern11 = /* @__PURE__ */ new RegExp("^refs\\/", "u");
const pattern12 = /* @__PURE__ */ new RegExp("^[0-9a-f]{40}([0-9a-f]{24})?$", "u");

function validate25(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="undoMarker" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if(((((data.pid === undefined) && (missing0 = "pid")) || ((data.target === undefined) && (missing0 = "target"))) || ((data.tree === undefined) && (missing0 = "tree"))) || ((data.saved === undefined) && (missing0 = "saved"))){
validate25.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.pid !== undefined){
let data0 = data.pid;
const _errs2 = errors;
if(!(((typeof data0 == "number") && (!(data0 % 1) && !isNaN(data0))) && (isFinite(data0)))){
validate25.errors = [{instancePath:instancePath+"/pid",schemaPath:"#/properties/pid/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs2){
if((typeof data0 == "number") && (isFinite(data0))){
if(data0 > 9007199254740991 || isNaN(data0)){
validate25.errors = [{instancePath:instancePath+"/pid",schemaPath:"#/properties/pid/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"}];
return false;
}
else {
if(data0 <= 0 || isNaN(data0)){
validate25.errors = [{instancePath:instancePath+"/pid",schemaPath:"#/properties/pid/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 0},message:"must be > 0"}];
return false;
}
}
}
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.target !== undefined){
let data1 = data.target;
const _errs4 = errors;
if(errors === _errs4){
if(typeof data1 === "string"){
if(!pattern11.test(data1)){
validate25.errors = [{instancePath:instancePath+"/target",schemaPath:"#/properties/target/pattern",keyword:"pattern",params:{pattern: "^refs\\/"},message:"must match pattern \""+"^refs\\/"+"\""}];
return false;
}
}
else {
validate25.errors = [{instancePath:instancePath+"/target",schemaPath:"#/properties/target/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.tree !== undefined){
let data2 = data.tree;
const _errs6 = errors;
if(errors === _errs6){
if(typeof data2 === "string"){
if(!pattern12.test(data2)){
validate25.errors = [{instancePath:instancePath+"/tree",schemaPath:"#/properties/tree/pattern",keyword:"pattern",params:{pattern: "^[0-9a-f]{40}([0-9a-f]{24})?$"},message:"must match pattern \""+"^[0-9a-f]{40}([0-9a-f]{24})?$"+"\""}];
return false;
}
}
else {
validate25.errors = [{instancePath:instancePath+"/tree",schemaPath:"#/properties/tree/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.saved !== undefined){
let data3 = data.saved;
const _errs8 = errors;
if(errors === _errs8){
if(typeof data3 === "string"){
if(!pattern11.test(data3)){
validate25.errors = [{instancePath:instancePath+"/saved",schemaPath:"#/properties/saved/pattern",keyword:"pattern",params:{pattern: "^refs\\/"},message:"must match pattern \""+"^refs\\/"+"\""}];
return false;
}
}
else {
validate25.errors = [{instancePath:instancePath+"/saved",schemaPath:"#/properties/saved/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs8 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
else {
validate25.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate25.errors = vErrors;
return errors === 0;
}

export const validate_editTemps = validate26;
const schema27 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"array","items":{"type":"string"},"$id":"editTemps"};

function validate26(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="editTemps" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(Array.isArray(data)){
var valid0 = true;
const len0 = data.length;
for(let i0=0; i0<len0; i0++){
const _errs1 = errors;
if(typeof data[i0] !== "string"){
validate26.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs1 === errors;
if(!valid0){
break;
}
}
}
else {
validate26.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
validate26.errors = vErrors;
return errors === 0;
}

export const validate_editManifest = validate27;
const schema28 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"array","items":{"type":"object","properties":{"path":{"type":"string"},"backup":{"type":["string","null"]},"mode":{"type":["number","null"]},"temp":{"type":"string"}},"required":["path","backup"],"additionalProperties":{}},"$id":"editManifest"};

function validate27(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="editManifest" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(Array.isArray(data)){
var valid0 = true;
const len0 = data.length;
for(let i0=0; i0<len0; i0++){
let data0 = data[i0];
const _errs1 = errors;
if(errors === _errs1){
if(data0 && typeof data0 == "object" && !Array.isArray(data0)){
let missing0;
if(((data0.path === undefined) && (missing0 = "path")) || ((data0.backup === undefined) && (missing0 = "backup"))){
validate27.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data0.path !== undefined){
const _errs4 = errors;
if(typeof data0.path !== "string"){
validate27.errors = [{instancePath:instancePath+"/" + i0+"/path",schemaPath:"#/items/properties/path/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid1 = _errs4 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data0.backup !== undefined){
let data2 = data0.backup;
const _errs6 = errors;
if((typeof data2 !== "string") && (data2 !== null)){
validate27.errors = [{instancePath:instancePath+"/" + i0+"/backup",schemaPath:"#/items/properties/backup/type",keyword:"type",params:{type: schema28.items.properties.backup.type},message:"must be string,null"}];
return false;
}
var valid1 = _errs6 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data0.mode !== undefined){
let data3 = data0.mode;
const _errs8 = errors;
if((!((typeof data3 == "number") && (isFinite(data3)))) && (data3 !== null)){
validate27.errors = [{instancePath:instancePath+"/" + i0+"/mode",schemaPath:"#/items/properties/mode/type",keyword:"type",params:{type: schema28.items.properties.mode.type},message:"must be number,null"}];
return false;
}
var valid1 = _errs8 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data0.temp !== undefined){
const _errs10 = errors;
if(typeof data0.temp !== "string"){
validate27.errors = [{instancePath:instancePath+"/" + i0+"/temp",schemaPath:"#/items/properties/temp/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid1 = _errs10 === errors;
}
else {
var valid1 = true;
}
}
}
}
}
}
else {
validate27.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs1 === errors;
if(!valid0){
break;
}
}
}
else {
validate27.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
validate27.errors = vErrors;
return errors === 0;
}

export const validate_evalRecord = validate28;
const schema29 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"id":{"type":"string","pattern":"^(?!\\.\\.?$)[\\w.-]{1,128}$"},"startedAt":{"type":"string"},"endpoint":{"type":"string"},"model":{"type":"string"},"agents":{"type":"array","items":{"type":"string","enum":["forge","opencode","codex","claude","gemini","aider"]}},"suite":{"type":"string"},"targets":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"type":"object","properties":{"toolCalls":{"type":"number"},"tokens":{"type":"number"}},"additionalProperties":{}}},"runs":{"type":"array","items":{"type":"object","properties":{"type":{"type":"string","const":"run"},"task":{"type":"string"},"run":{"type":"integer","exclusiveMinimum":0,"maximum":9007199254740991},"agent":{"type":"string","enum":["forge","opencode","codex","claude","gemini","aider"]},"model":{"type":"string"},"success":{"type":"boolean"},"failure":{"type":["string","null"]},"agentExit":{"type":["number","null"]},"timedOut":{"type":"boolean"},"requests":{"type":"number"},"toolCalls":{"type":"number"},"promptTokens":{"type":"number"},"completionTokens":{"type":"number"},"uncachedTokens":{"type":"number"},"largestRequest":{"type":"number"},"usageReported":{"type":"boolean"},"looped":{"type":"boolean"},"reReads":{"default":0,"type":"number"},"wallMs":{"type":"number"}},"required":["type","task","run","agent","model","success","failure","agentExit","timedOut","requests","toolCalls","promptTokens","completionTokens","uncachedTokens","largestRequest","usageReported","looped","wallMs"],"additionalProperties":{}}}},"required":["id","startedAt","endpoint","model","agents","suite","runs"],"additionalProperties":{},"$id":"evalRecord"};

function validate28(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="evalRecord" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((((((((data.id === undefined) && (missing0 = "id")) || ((data.startedAt === undefined) && (missing0 = "startedAt"))) || ((data.endpoint === undefined) && (missing0 = "endpoint"))) || ((data.model === undefined) && (missing0 = "model"))) || ((data.agents === undefined) && (missing0 = "agents"))) || ((data.suite === undefined) && (missing0 = "suite"))) || ((data.runs === undefined) && (missing0 = "runs"))){
validate28.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.id !== undefined){
let data0 = data.id;
const _errs2 = errors;
if(errors === _errs2){
if(typeof data0 === "string"){
if(!pattern0.test(data0)){
validate28.errors = [{instancePath:instancePath+"/id",schemaPath:"#/properties/id/pattern",keyword:"pattern",params:{pattern: "^(?!\\.\\.?$)[\\w.-]{1,128}$"},message:"must match pattern \""+"^(?!\\.\\.?$)[\\w.-]{1,128}$"+"\""}];
return false;
}
}
else {
validate28.errors = [{instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.startedAt !== undefined){
const _errs4 = errors;
if(typeof data.startedAt !== "string"){
validate28.errors = [{instancePath:instancePath+"/startedAt",schemaPath:"#/properties/startedAt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.endpoint !== undefined){
const _errs6 = errors;
if(typeof data.endpoint !== "string"){
validate28.errors = [{instancePath:instancePath+"/endpoint",schemaPath:"#/properties/endpoint/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.model !== undefined){
const _errs8 = errors;
if(typeof data.model !== "string"){
validate28.errors = [{instancePath:instancePath+"/model",schemaPath:"#/properties/model/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs8 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.agents !== undefined){
let data4 = data.agents;
const _errs10 = errors;
if(errors === _errs10){
if(Array.isArray(data4)){
var valid1 = true;
const len0 = data4.length;
for(let i0=0; i0<len0; i0++){
let data5 = data4[i0];
const _errs12 = errors;
if(typeof data5 !== "string"){
validate28.errors = [{instancePath:instancePath+"/agents/" + i0,schemaPath:"#/properties/agents/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!((((((data5 === "forge") || (data5 === "opencode")) || (data5 === "codex")) || (data5 === "claude")) || (data5 === "gemini")) || (data5 === "aider"))){
validate28.errors = [{instancePath:instancePath+"/agents/" + i0,schemaPath:"#/properties/agents/items/enum",keyword:"enum",params:{allowedValues: schema29.properties.agents.items.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid1 = _errs12 === errors;
if(!valid1){
break;
}
}
}
else {
validate28.errors = [{instancePath:instancePath+"/agents",schemaPath:"#/properties/agents/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs10 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.suite !== undefined){
const _errs14 = errors;
if(typeof data.suite !== "string"){
validate28.errors = [{instancePath:instancePath+"/suite",schemaPath:"#/properties/suite/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs14 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.targets !== undefined){
let data7 = data.targets;
const _errs16 = errors;
if(errors === _errs16){
if(data7 && typeof data7 == "object" && !Array.isArray(data7)){
for(const key0 in data7){
const _errs18 = errors;
if(typeof key0 !== "string"){
const err0 = {instancePath:instancePath+"/targets",schemaPath:"#/properties/targets/propertyNames/type",keyword:"type",params:{type: "string"},message:"must be string",propertyName:key0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
var valid2 = _errs18 === errors;
if(!valid2){
const err1 = {instancePath:instancePath+"/targets",schemaPath:"#/properties/targets/propertyNames",keyword:"propertyNames",params:{propertyName: key0},message:"property name must be valid"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
validate28.errors = vErrors;
return false;
break;
}
}
if(valid2){
for(const key1 in data7){
let data8 = data7[key1];
const _errs21 = errors;
if(errors === _errs21){
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
if(data8.toolCalls !== undefined){
let data9 = data8.toolCalls;
const _errs24 = errors;
if(!((typeof data9 == "number") && (isFinite(data9)))){
validate28.errors = [{instancePath:instancePath+"/targets/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/toolCalls",schemaPath:"#/properties/targets/additionalProperties/properties/toolCalls/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid4 = _errs24 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data8.tokens !== undefined){
let data10 = data8.tokens;
const _errs26 = errors;
if(!((typeof data10 == "number") && (isFinite(data10)))){
validate28.errors = [{instancePath:instancePath+"/targets/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/tokens",schemaPath:"#/properties/targets/additionalProperties/properties/tokens/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid4 = _errs26 === errors;
}
else {
var valid4 = true;
}
}
}
else {
validate28.errors = [{instancePath:instancePath+"/targets/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/targets/additionalProperties/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid3 = _errs21 === errors;
if(!valid3){
break;
}
}
}
}
else {
validate28.errors = [{instancePath:instancePath+"/targets",schemaPath:"#/properties/targets/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs16 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.runs !== undefined){
let data11 = data.runs;
const _errs28 = errors;
if(errors === _errs28){
if(Array.isArray(data11)){
var valid5 = true;
const len1 = data11.length;
for(let i1=0; i1<len1; i1++){
let data12 = data11[i1];
const _errs30 = errors;
if(errors === _errs30){
if(data12 && typeof data12 == "object" && !Array.isArray(data12)){
if(data12.reReads === undefined){
data12.reReads = 0;
}
let missing1;
if(((((((((((((((((((data12.type === undefined) && (missing1 = "type")) || ((data12.task === undefined) && (missing1 = "task"))) || ((data12.run === undefined) && (missing1 = "run"))) || ((data12.agent === undefined) && (missing1 = "agent"))) || ((data12.model === undefined) && (missing1 = "model"))) || ((data12.success === undefined) && (missing1 = "success"))) || ((data12.failure === undefined) && (missing1 = "failure"))) || ((data12.agentExit === undefined) && (missing1 = "agentExit"))) || ((data12.timedOut === undefined) && (missing1 = "timedOut"))) || ((data12.requests === undefined) && (missing1 = "requests"))) || ((data12.toolCalls === undefined) && (missing1 = "toolCalls"))) || ((data12.promptTokens === undefined) && (missing1 = "promptTokens"))) || ((data12.completionTokens === undefined) && (missing1 = "completionTokens"))) || ((data12.uncachedTokens === undefined) && (missing1 = "uncachedTokens"))) || ((data12.largestRequest === undefined) && (missing1 = "largestRequest"))) || ((data12.usageReported === undefined) && (missing1 = "usageReported"))) || ((data12.looped === undefined) && (missing1 = "looped"))) || ((data12.wallMs === undefined) && (missing1 = "wallMs"))){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1,schemaPath:"#/properties/runs/items/required",keyword:"required",params:{missingProperty: missing1},message:"must have required property '"+missing1+"'"}];
return false;
}
else {
if(data12.type !== undefined){
let data13 = data12.type;
const _errs33 = errors;
if(typeof data13 !== "string"){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/type",schemaPath:"#/properties/runs/items/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if("run" !== data13){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/type",schemaPath:"#/properties/runs/items/properties/type/const",keyword:"const",params:{allowedValue: "run"},message:"must be equal to constant"}];
return false;
}
var valid6 = _errs33 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.task !== undefined){
const _errs35 = errors;
if(typeof data12.task !== "string"){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/task",schemaPath:"#/properties/runs/items/properties/task/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid6 = _errs35 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.run !== undefined){
let data15 = data12.run;
const _errs37 = errors;
if(!(((typeof data15 == "number") && (!(data15 % 1) && !isNaN(data15))) && (isFinite(data15)))){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/run",schemaPath:"#/properties/runs/items/properties/run/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs37){
if((typeof data15 == "number") && (isFinite(data15))){
if(data15 > 9007199254740991 || isNaN(data15)){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/run",schemaPath:"#/properties/runs/items/properties/run/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"}];
return false;
}
else {
if(data15 <= 0 || isNaN(data15)){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/run",schemaPath:"#/properties/runs/items/properties/run/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 0},message:"must be > 0"}];
return false;
}
}
}
}
var valid6 = _errs37 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.agent !== undefined){
let data16 = data12.agent;
const _errs39 = errors;
if(typeof data16 !== "string"){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/agent",schemaPath:"#/properties/runs/items/properties/agent/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!((((((data16 === "forge") || (data16 === "opencode")) || (data16 === "codex")) || (data16 === "claude")) || (data16 === "gemini")) || (data16 === "aider"))){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/agent",schemaPath:"#/properties/runs/items/properties/agent/enum",keyword:"enum",params:{allowedValues: schema29.properties.runs.items.properties.agent.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid6 = _errs39 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.model !== undefined){
const _errs41 = errors;
if(typeof data12.model !== "string"){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/model",schemaPath:"#/properties/runs/items/properties/model/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid6 = _errs41 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.success !== undefined){
const _errs43 = errors;
if(typeof data12.success !== "boolean"){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/success",schemaPath:"#/properties/runs/items/properties/success/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid6 = _errs43 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.failure !== undefined){
let data19 = data12.failure;
const _errs45 = errors;
if((typeof data19 !== "string") && (data19 !== null)){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/failure",schemaPath:"#/properties/runs/items/properties/failure/type",keyword:"type",params:{type: schema29.properties.runs.items.properties.failure.type},message:"must be string,null"}];
return false;
}
var valid6 = _errs45 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.agentExit !== undefined){
let data20 = data12.agentExit;
const _errs47 = errors;
if((!((typeof data20 == "number") && (isFinite(data20)))) && (data20 !== null)){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/agentExit",schemaPath:"#/properties/runs/items/properties/agentExit/type",keyword:"type",params:{type: schema29.properties.runs.items.properties.agentExit.type},message:"must be number,null"}];
return false;
}
var valid6 = _errs47 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.timedOut !== undefined){
const _errs49 = errors;
if(typeof data12.timedOut !== "boolean"){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/timedOut",schemaPath:"#/properties/runs/items/properties/timedOut/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid6 = _errs49 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.requests !== undefined){
let data22 = data12.requests;
const _errs51 = errors;
if(!((typeof data22 == "number") && (isFinite(data22)))){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/requests",schemaPath:"#/properties/runs/items/properties/requests/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid6 = _errs51 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.toolCalls !== undefined){
let data23 = data12.toolCalls;
const _errs53 = errors;
if(!((typeof data23 == "number") && (isFinite(data23)))){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/toolCalls",schemaPath:"#/properties/runs/items/properties/toolCalls/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid6 = _errs53 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.promptTokens !== undefined){
let data24 = data12.promptTokens;
const _errs55 = errors;
if(!((typeof data24 == "number") && (isFinite(data24)))){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/promptTokens",schemaPath:"#/properties/runs/items/properties/promptTokens/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid6 = _errs55 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.completionTokens !== undefined){
let data25 = data12.completionTokens;
const _errs57 = errors;
if(!((typeof data25 == "number") && (isFinite(data25)))){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/completionTokens",schemaPath:"#/properties/runs/items/properties/completionTokens/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid6 = _errs57 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.uncachedTokens !== undefined){
let data26 = data12.uncachedTokens;
const _errs59 = errors;
if(!((typeof data26 == "number") && (isFinite(data26)))){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/uncachedTokens",schemaPath:"#/properties/runs/items/properties/uncachedTokens/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid6 = _errs59 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.largestRequest !== undefined){
let data27 = data12.largestRequest;
const _errs61 = errors;
if(!((typeof data27 == "number") && (isFinite(data27)))){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/largestRequest",schemaPath:"#/properties/runs/items/properties/largestRequest/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid6 = _errs61 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.usageReported !== undefined){
const _errs63 = errors;
if(typeof data12.usageReported !== "boolean"){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/usageReported",schemaPath:"#/properties/runs/items/properties/usageReported/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid6 = _errs63 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data12.looped !== undefined){
const _errs65 = errors;
if(typeof data12.looped !== "boolean"){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/looped",schemaPath:"#/properties/runs/items/properties/looped/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid6 = _errs65 === errors;
}
else {
var valid6 = true;
}
if(valid6){
let data30 = data12.reReads;
const _errs67 = errors;
if(!((typeof data30 == "number") && (isFinite(data30)))){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/reReads",schemaPath:"#/properties/runs/items/properties/reReads/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid6 = _errs67 === errors;
if(valid6){
if(data12.wallMs !== undefined){
let data31 = data12.wallMs;
const _errs69 = errors;
if(!((typeof data31 == "number") && (isFinite(data31)))){
validate28.errors = [{instancePath:instancePath+"/runs/" + i1+"/wallMs",schemaPath:"#/properties/runs/items/properties/wallMs/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
var valid6 = _errs69 === errors;
}
else {
var valid6 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate28.errors = [{instancePath:instancePath+"/runs/" + i1,schemaPath:"#/properties/runs/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid5 = _errs30 === errors;
if(!valid5){
break;
}
}
}
else {
validate28.errors = [{instancePath:instancePath+"/runs",schemaPath:"#/properties/runs/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs28 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
else {
validate28.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate28.errors = vErrors;
return errors === 0;
}

export const planPointer: StateFile<'planPointer'> = { kind: 'planPointer', what: "an active plan pointer", validate: validate_planPointer };
export const contract: StateFile<'contract'> = { kind: 'contract', what: "a plan contract", validate: validate_contract };
export const journalEntry: StateFile<'journalEntry'> = { kind: 'journalEntry', what: "a plan journal entry", validate: validate_journalEntry };
export const agentPlanPointer: StateFile<'agentPlanPointer'> = { kind: 'agentPlanPointer', what: "a current agent plan pointer", validate: validate_agentPlanPointer };
export const agentPlan: StateFile<'agentPlan'> = { kind: 'agentPlan', what: "a forge agent plan", validate: validate_agentPlan };
export const telemetry: StateFile<'telemetry'> = { kind: 'telemetry', what: "a telemetry line", validate: validate_telemetry };
export const agentSession: StateFile<'agentSession'> = { kind: 'agentSession', what: "a forge agent session", validate: validate_agentSession };
export const logEvent: StateFile<'logEvent'> = { kind: 'logEvent', what: "a log event", validate: validate_logEvent };
export const session: StateFile<'session'> = { kind: 'session', what: "a session snapshot", validate: validate_session };
export const iterState: StateFile<'iterState'> = { kind: 'iterState', what: "a module's iteration state", validate: validate_iterState };
export const loopPointer: StateFile<'loopPointer'> = { kind: 'loopPointer', what: "a current loop pointer", validate: validate_loopPointer };
export const loop: StateFile<'loop'> = { kind: 'loop', what: "a loop", validate: validate_loop };
export const memoryEntry: StateFile<'memoryEntry'> = { kind: 'memoryEntry', what: "a memory entry", validate: validate_memoryEntry };
export const recordId: StateFile<'recordId'> = { kind: 'recordId', what: "a record with an id", validate: validate_recordId };
export const stamped: StateFile<'stamped'> = { kind: 'stamped', what: "a stamped document", validate: validate_stamped };
export const undoMarker: StateFile<'undoMarker'> = { kind: 'undoMarker', what: "an undo marker", validate: validate_undoMarker };
export const editTemps: StateFile<'editTemps'> = { kind: 'editTemps', what: "an edit journal's temp list", validate: validate_editTemps };
export const editManifest: StateFile<'editManifest'> = { kind: 'editManifest', what: "an edit journal's manifest", validate: validate_editManifest };
export const evalRecord: StateFile<'evalRecord'> = { kind: 'evalRecord', what: "a forge eval record", validate: validate_evalRecord };
