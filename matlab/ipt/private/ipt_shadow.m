% SPDX-License-Identifier: Apache-2.0
function out = ipt_shadow(name, op, nout, args, orig)
% Runs the shadow of toolbox function NAME: operator OP with the name-value
% list ARGS (translated from the caller's arguments ORIG), NOUT outputs.
% ARGS = [] (not a cell) means the call's form is one OpenIPT does not
% implement. Such a call, and one the gateway answers openipt:unsupported (a
% class, or an option no implementation takes), go to the next function NAME
% on the path, with ORIG unchanged.
nout = max(1, nout);
if iscell(args)
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
