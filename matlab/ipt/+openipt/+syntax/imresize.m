% SPDX-License-Identifier: Apache-2.0
function args = imresize(nout, in)
% imresize(A, scale), imresize(A, [numrows numcols]), then a method name and
% the Method, Scale, OutputSize and Antialiasing name-value pairs. Indexed
% images, NaN in the output size, a custom kernel and the map output fall
% through.
args = [];
if numel(in) < 2 || nout > 1
  return;
end
args = {'A', in{1}};
rest = in(2:end);
v = rest{1};
if isnumeric(v)
  if any(isnan(v(:)))
    args = [];
    return;
  end
  if isscalar(v)
    args(end+1:end+2) = {'Scale', double(v)};
  elseif numel(v) == 2
    args(end+1:end+2) = {'OutputSize', double(v(:)')};
  else
    args = [];  % a colormap: an indexed image
    return;
  end
  rest = rest(2:end);
end
if ~isempty(rest) && (ischar(rest{1}) || isa(rest{1}, 'string')) && mod(numel(rest), 2) == 1
  args(end+1:end+2) = {'method', lower(char(rest{1}))};
  rest = rest(2:end);
end
[nv, ok] = openipt.syntax.name_values(rest, {'Method', 'Scale', 'OutputSize', 'Antialiasing', 'Colormap', 'Dither'});
if ~ok
  args = [];
  return;
end
for k = 1:2:numel(nv)
  switch nv{k}
    case 'Method'
      if ~ischar(nv{k+1})
        args = [];
        return;
      end
      args(end+1:end+2) = {'method', lower(nv{k+1})};
    case {'Scale', 'OutputSize'}
      if any(isnan(double(nv{k+1}(:))))
        args = [];
        return;
      end
      args(end+1:end+2) = {nv{k}, double(nv{k+1})};
    case 'Antialiasing'
      args(end+1:end+2) = {'Antialiasing', double(logical(nv{k+1}))};
    otherwise
      args = [];
      return;
  end
end
end
