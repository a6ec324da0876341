% SPDX-License-Identifier: Apache-2.0
function out = ipt_shadow(name, op, nout, args, orig)
% Runs the shadow of toolbox function NAME: operator OP with the name-value
% list ARGS (translated from the caller's arguments ORIG), NOUT outputs.
% ARGS = [] (not a cell) means the call's form is one OpenIPT does not
% implement. Such a call, one with an input class the operator does not
% accept, and one the library answers openipt:unsupported go to the next
% function NAME on the path, with ORIG unchanged.
nout = max(1, nout);
if iscell(args) && classes_accepted(op, args)
  try
    out = ipt_run(op, nout, args);
    return;
  catch err
    if ~strcmp(err.identifier, 'openipt:unsupported')
      rethrow(err);
    end
  end
end
out = ipt_fallthrough(name, nout, orig);
end

function ok = classes_accepted(op, args)
% Every image argument of ARGS has a class the operator accepts.
persistent schemas;
if isempty(schemas)
  schemas = containers.Map();
end
if ~isKey(schemas, op)
  schemas(op) = openipt_mex('schema', op);
end
s = schemas(op);
ok = true;
for k = 1:2:numel(args)
  i = find(strcmpi({s.name}, args{k}), 1);
  if isempty(i) || ~strcmp(s(i).kind, 'input') || isempty(args{k+1})
    continue;
  end
  v = args{k+1};
  if isa(v, 'openipt.gpuImage')
    c = classUnderlying(v);
  elseif (isnumeric(v) || islogical(v)) && isreal(v) && ~issparse(v)
    c = class(v);
  else
    ok = false;
    return;
  end
  if ~any(strcmp(s(i).classes, c))
    ok = false;
    return;
  end
end
end
