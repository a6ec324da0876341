% SPDX-License-Identifier: Apache-2.0
function args = imresize(nout, in)
% imresize(A, scale), imresize(A, [numrows numcols]), then a method name and
% the Method, Scale, OutputSize and Antialiasing name-value pairs; one NaN
% in the output size keeps the aspect ratio. A takes any number of planes
% (H x W x P), each resized alike. Indexed images, arrays of more than three
% dimensions, a non-integer output size, a custom kernel or method name
% OpenIPT lacks, and the map output fall through.
args = [];
if numel(in) < 2 || nout > 1
  return;
end
A = in{1};
if ndims(A) > 3
  return;
end
args = {'A', A};
rest = in(2:end);
v = rest{1};
if isnumeric(v)
  if isscalar(v)
    args(end+1:end+2) = {'Scale', double(v)};
  elseif numel(v) == 2
    a = output_size_args(v, A);
    if isempty(a)
      args = [];
      return;
    end
    args(end+1:end+2) = a;
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
    case 'Scale'
      args(end+1:end+2) = {nv{k}, double(nv{k+1})};
    case 'OutputSize'
      a = output_size_args(nv{k+1}, A);
      if isempty(a)
        args = [];
        return;
      end
      args(end+1:end+2) = a;
    case 'Antialiasing'
      args(end+1:end+2) = {'Antialiasing', double(logical(nv{k+1}))};
    otherwise
      args = [];
      return;
  end
end
k = find(strcmp(args(1:2:end), 'method'));
if ~isempty(k) && ~any(strcmp(args{2*k(end)}, ...
    {'nearest', 'bilinear', 'bicubic', 'box', 'triangle', 'cubic', 'lanczos2', 'lanczos3'}))
  args = [];
end
end

function a = output_size_args(v, A)
% [numrows numcols] as positive integers, one of them possibly NaN (the
% aspect ratio is kept: both dimensions scale by the given one's ratio, and
% the output size is ceil(scale .* size(A))). A non-integer size next to a
% NaN is that scale; other non-integer sizes fall through ({}).
v = double(v(:)');
a = {};
if numel(v) ~= 2 || all(isnan(v)) || any(v(~isnan(v)) <= 0)
  return;
end
known = find(~isnan(v));
if all(v(known) == fix(v(known)))
  a = {'OutputSize', v};
elseif isscalar(known)
  a = {'Scale', v(known) / size(A, known)};
end
end
